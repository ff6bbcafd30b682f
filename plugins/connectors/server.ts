import {
  CatalogueTriggers,
  Connections,
  Connectors,
  contribute,
  defineServerPlugin,
  intVar,
  RecipeTargetStore,
  SetupPreparations,
  T,
  TriggerPolling,
  type ConnectionService,
  type RecipeTargetService,
  type ServerConfig,
} from '../../src/server';
import { connectorActions, type ConnectorStepServices } from './automation-actions';
import { driveNewFileTrigger, type DriveTriggerServices } from './drive-trigger';
import { DECLARED_TRIGGERS } from './declarations';
import { connectorDefinitions, endpointsOf, SharedSandbox } from './providers';
import type { SandboxProviders } from './sandbox/sandbox-server';
import { registerSandboxRoutes } from './sandbox-connect';
import { registerTargetRoutes } from './target-routes';
import { prepareTargets } from './targets';

/**
 * The connectors plugin (server side): declares Google Drive, Google Sheets and Xero (OAuth 2,
 * their GOOGLE_* / XERO_* variables and a shared local sandbox, providers.ts) and the connectors
 * that need no account; the Connections module resolves and offers them. Contributes the engine steps of those providers (Drive download, Sheets append,
 * Xero draft bill), the polled Google Drive trigger 'new file in folder', and the starter
 * recipe's preparation of a combination's Drive folder and Sheet; serves the setup screen's
 * folder and Sheet pickers.
 */
export function createConnectorsPlugin(opts: { accessTtlSeconds?: number } = {}) {
  const sandbox = new SharedSandbox({ accessTtlSeconds: opts.accessTtlSeconds });
  /** The services of the steps, the trigger, the preparation and the pickers, from the plugin's resolved needs. */
  const servicesOf = ({
    connections,
    config,
    recipes,
  }: {
    connections: ConnectionService;
    config: ServerConfig;
    recipes: RecipeTargetService;
  }): ConnectorStepServices & DriveTriggerServices => ({
    connections,
    // read at each call: the Connections module resolves the endpoints (and starts the sandbox) when it starts
    endpoints: () => endpointsOf(connections),
    recipes,
    maxDownloadBytes: config.maxUploadBytes,
    pollIntervalMs: intVar(config.env, 'DRIVE_POLL_INTERVAL_MS', 60_000, 1000, 86_400_000),
  });
  const plugin = defineServerPlugin({
    id: 'connectors',
    needs: { connections: Connections, config: T.ServerConfig, log: T.Logger, recipes: RecipeTargetStore, poller: TriggerPolling },
    provides: [],
    contributes: [...connectorDefinitions(sandbox).map((c) => contribute(Connectors, c)), ...DECLARED_TRIGGERS.map((t) => contribute(CatalogueTriggers, t))],
    steps: (deps) => {
      const s = servicesOf(deps);
      return [
        ...connectorActions(() => s),
        driveNewFileTrigger(() => s),
        contribute(SetupPreparations, {
          id: 'connectors.google-targets',
          async prepare(request, ctx) {
            const record = await s.recipes.targetsOf(request.managedUserId, request.combinationId);
            if (!record) return { prepared: [] };
            return prepareTargets(
              s,
              { id: record.id, managedUserId: request.managedUserId, combinationId: request.combinationId },
              record.template,
              ctx.signal,
            );
          },
        }),
      ];
    },
    routes(app, deps) {
      const s = servicesOf(deps);
      registerTargetRoutes(app, { services: () => s, connections: deps.connections, poller: deps.poller });
      registerSandboxRoutes(app, { connections: deps.connections, config: deps.config, sandbox: () => sandbox.instance });
    },
    async onStart({ log }) {
      // the Connections module started the sandbox (if used) and resolved the endpoints before this
      if (sandbox.instance) log.info({ url: sandbox.instance.url }, `Sandbox providers (Google Drive, Google Sheets, Xero) at ${sandbox.instance.url}`);
    },
    async onStop() {
      await sandbox.stop();
    },
  });
  /** the running sandbox providers of this instance, if any (tests, the sandbox page) */
  return Object.assign(plugin, { sandbox: (): SandboxProviders | undefined => sandbox.instance });
}

/** The sandbox of a running plugin instance (tests and the sandbox page). */
export type { SandboxProviders };

export default createConnectorsPlugin();
