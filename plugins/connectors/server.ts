import { AutomationActions, AutomationTriggers, Connections, contribute, defineServerPlugin, SetupPreparations, T, TriggerPolling } from '../../src/server';
import { connectorActions, type ConnectorStepServices } from './automation-actions';
import { driveNewFileTrigger, type DriveTriggerServices } from './drive-trigger';
import { connectionProviders, endpointsOf, type Endpoints } from './providers';
import { SandboxProviders } from './sandbox/sandbox-server';
import { registerTargetRoutes } from './target-routes';
import { prepareTargets } from './targets';

/**
 * The connectors plugin (server side): registers Google Drive, Google Sheets and Xero as
 * connectable providers with the core Connections service, and starts the local sandbox
 * providers when the configuration asks for them (SANDBOX_PROVIDERS, or no client id outside
 * production). Contributes the engine steps of those providers (Drive download, Sheets append,
 * Xero draft bill), the polled Google Drive trigger 'new file in folder', and the starter
 * recipe's preparation of a combination's Drive folder and Sheet; serves the setup screen's
 * folder and Sheet pickers.
 */
export function createConnectorsPlugin(opts: { accessTtlSeconds?: number } = {}) {
  let sandbox: SandboxProviders | undefined;
  let endpoints: Endpoints = {};
  let started: (ConnectorStepServices & DriveTriggerServices) | undefined;
  const services = () => {
    if (!started) throw new Error('The connectors plugin has not started yet, so its workflow step cannot run.');
    return started;
  };
  const plugin = defineServerPlugin({
    id: 'connectors',
    needs: { connections: Connections, config: T.ServerConfig, log: T.Logger, db: T.Db, poller: TriggerPolling },
    provides: [],
    contributes: [
      ...connectorActions(services).map((a) => contribute(AutomationActions, a)),
      contribute(AutomationTriggers, driveNewFileTrigger(() => started)),
      contribute(SetupPreparations, {
        id: 'connectors.google-targets',
        async prepare(request, ctx) {
          const s = services();
          const record = await s.db
            .selectFrom('user_recipes as ur')
            .leftJoin('combinations as c', 'c.id', 'ur.combination_id')
            .select(['ur.id', 'c.recipe'])
            .where('ur.managed_user_id', '=', request.managedUserId)
            .where('ur.combination_id', '=', request.combinationId)
            .executeTakeFirst();
          if (!record) return { prepared: [] };
          const template = typeof record.recipe === 'string' ? JSON.parse(record.recipe) : record.recipe;
          return prepareTargets(s, { id: record.id, managedUserId: request.managedUserId, combinationId: request.combinationId }, template, ctx.signal);
        },
      }),
    ],
    routes(app, { connections, poller }) {
      registerTargetRoutes(app, { services, connections, poller });
    },
    async onStart({ connections, config, log, db }) {
      if (config.sandbox.google || config.sandbox.xero) {
        sandbox = new SandboxProviders({ dataDir: config.dataDir, secretKey: config.secretKey, host: config.sandbox.host, port: config.sandbox.port, accessTtlSeconds: opts.accessTtlSeconds });
        const url = await sandbox.start();
        // the sandbox signs in only back to this server's Connect callback
        sandbox.oauth.registerRedirectUri(connections.redirectUri);
        log.info({ url }, `Sandbox providers (Google Drive, Google Sheets, Xero) at ${url}`);
      }
      endpoints = endpointsOf(config, sandbox);
      for (const p of connectionProviders(() => endpoints)) connections.register(p);
      started = { connections, endpoints: () => endpoints, db, maxDownloadBytes: config.maxUploadBytes, pollIntervalMs: config.drivePollIntervalMs };
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
