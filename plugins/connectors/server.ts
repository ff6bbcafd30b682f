import { AutomationActions, Connections, contribute, defineServerPlugin, T } from '../../src/server';
import { connectorActions, type ConnectorStepServices } from './automation-actions';
import { connectionProviders, endpointsOf, type Endpoints } from './providers';
import { SandboxProviders } from './sandbox/sandbox-server';

/**
 * The connectors plugin (server side): registers Google Drive, Google Sheets and Xero as
 * connectable providers with the core Connections service, and starts the local sandbox
 * providers when the configuration asks for them (SANDBOX_PROVIDERS, or no client id outside
 * production). Contributes the engine steps of those providers (Drive download, Sheets append,
 * Xero draft bill), which call them with the recipe owner's connection.
 */
export function createConnectorsPlugin(opts: { accessTtlSeconds?: number } = {}) {
  let sandbox: SandboxProviders | undefined;
  let endpoints: Endpoints = {};
  let started: ConnectorStepServices | undefined;
  const services = (): ConnectorStepServices => {
    if (!started) throw new Error('The connectors plugin has not started yet, so its workflow step cannot run.');
    return started;
  };
  const plugin = defineServerPlugin({
    id: 'connectors',
    needs: { connections: Connections, config: T.ServerConfig, log: T.Logger, db: T.Db },
    provides: [],
    contributes: connectorActions(services).map((a) => contribute(AutomationActions, a)),
    async onStart({ connections, config, log, db }) {
      if (config.sandbox.google || config.sandbox.xero) {
        sandbox = new SandboxProviders({ dataDir: config.dataDir, secretKey: config.secretKey, host: config.sandbox.host, port: config.sandbox.port, accessTtlSeconds: opts.accessTtlSeconds });
        const url = await sandbox.start();
        log.info({ url }, `Sandbox providers (Google Drive, Google Sheets, Xero) at ${url}`);
      }
      endpoints = endpointsOf(config, sandbox);
      for (const p of connectionProviders(() => endpoints)) connections.register(p);
      started = { connections, endpoints: () => endpoints, db, maxDownloadBytes: config.maxUploadBytes };
    },
    async onStop() {
      await sandbox?.stop();
    },
  });
  /** the running sandbox providers of this instance, if any (tests, the sandbox page) */
  return Object.assign(plugin, { sandbox: () => sandbox });
}

/** The sandbox of a running plugin instance (tests and the sandbox page). */
export type { SandboxProviders };

export default createConnectorsPlugin();
