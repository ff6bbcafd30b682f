import { provide } from '../../core/plugin';
import { token } from '../../core/di';
import { parseId } from '../http/ids';
import { defineServerPlugin } from '../plugin';
import * as T from '../tokens';
import { ConnectionService, PENDING_CONNECT_TTL_SECONDS } from './connection-service';
import { connectionMigrations } from './migrations';
import { TokenCipher } from './token-cipher';
import { userOf } from '../auth/guard';
import { ConnectFailedError } from './errors';
import { cookieValue, widgetCaller } from './widget-auth';
import { Connectors, type ConnectorSandbox } from './kinds';
import { checkConnectorSettings, resolveOAuth, sandboxFlag } from './connector-settings';
import { TriggerCursors, TriggerCursorStore } from './trigger-cursors';

/** The connections service (token store, Connect, refresh, Disconnect). */
export const Connections = token<ConnectionService>('Connections');

/** The API prefix of the connection widget and the OAuth redirect. */
export const CONNECTIONS_API = '/api/connections';
/** Where providers send the browser back; register PUBLIC_URL + this at each provider. */
export const CALLBACK_PATH = `${CONNECTIONS_API}/callback`;
/** The browser page the popup ends on: it tells the widget and closes (plugins/connectors). */
export const CONNECT_DONE_PAGE = '/connections/done';
const COOKIE = 'fm_connect';

/**
 * Connections as a core module: the token store's tables, the Connections service (plugins
 * register the providers they know), and the widget's API, authorised by the workatoToken:
 *   GET  /api/connections                      the caller's connections, one per connectable provider
 *   GET  /api/connections/connect/:provider    (the popup) sets the HttpOnly cookie, redirects to consent
 *   GET  /api/connections/callback             checks the state, parks the provider's answer, ends on /connections/done
 *   POST /api/connections/complete             (session) finishes the Connect for the signed-in user who started it
 *   POST /api/connections/key/:provider        connects an API-key connector with its form's values
 *   POST /api/connections/:id/disconnect       revokes and forgets; another user's id is 404
 *
 * The connectable providers are the connectors plugins declare (`Connectors`): at start-up each
 * OAuth one is resolved from its environment variables, or its sandbox is started, and offered
 * when it has a client; an API-key one is always offered.
 */
export const connectionsModule = defineServerPlugin({
  id: 'connections',
  migrations: connectionMigrations,
  provides: [
    provide(Connections, (get) => {
      const config = get(T.ServerConfig);
      checkConnectorSettings(get(T.Contributions).all(Connectors), config.env);
      return new ConnectionService({
        db: get(T.Db),
        cipher: new TokenCipher([config.secretKey, ...config.previousSecretKeys]),
        redirectUri: `${config.publicUrl}${CALLBACK_PATH}`,
        log: get(T.Logger),
      });
    }),
    provide(TriggerCursorStore, (get) => new TriggerCursors(get(T.Db))),
  ],
  declares: [Connectors],
  needs: { connections: Connections, config: T.ServerConfig, db: T.Db, contributions: T.Contributions },
  routes(app, { connections, config, db }) {
    const secure = config.publicUrl.startsWith('https:');
    const widgetAuth = { secret: config.secretKey, db };
    const clearCookie = `${COOKIE}=; Path=${CONNECTIONS_API}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

    app.get(CONNECTIONS_API, async (request) => {
      const caller = await widgetCaller(request, widgetAuth);
      return { result: await connections.list(caller.workatoId) };
    });

    app.get(`${CONNECTIONS_API}/connect/:provider`, { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
      const caller = await widgetCaller(request, widgetAuth);
      const provider = (request.params as { provider: string }).provider;
      const { url, cookie } = await connections.begin({ userId: caller.userId, managedUserId: caller.workatoId }, provider);
      const attrs = [
        `${COOKIE}=${cookie}`,
        `Path=${CONNECTIONS_API}`,
        `Max-Age=${PENDING_CONNECT_TTL_SECONDS}`,
        'HttpOnly',
        'SameSite=Lax',
        ...(secure ? ['Secure'] : []),
      ];
      return reply.header('Set-Cookie', attrs.join('; ')).header('Cache-Control', 'no-store').redirect(url, 302);
    });

    app.get(CALLBACK_PATH, async (request, reply) => {
      const query = new URLSearchParams(request.query as Record<string, string>);
      const done = new URLSearchParams();
      reply.header('Cache-Control', 'no-store');
      try {
        // parked until the signed-in user of this browser confirms it (POST …/complete)
        const { provider } = await connections.returned(cookieValue(request, COOKIE), query);
        done.set('result', 'confirm');
        done.set('provider', provider);
      } catch (e) {
        const err = e as Error & { statusCode?: number };
        if (!err.statusCode) request.log.error({ err }, 'connect callback failed');
        reply.header('Set-Cookie', clearCookie);
        done.set('result', 'error');
        done.set('reason', e instanceof ConnectFailedError ? e.reason : 'provider');
      }
      return reply.redirect(`${CONNECT_DONE_PAGE}?${done}`, 302);
    });

    app.post(`${CONNECTIONS_API}/complete`, { auth: 'user', config: { rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
      reply.header('Set-Cookie', clearCookie).header('Cache-Control', 'no-store');
      const result = await connections.complete(cookieValue(request, COOKIE), { userId: userOf(request).id });
      return { status: 'success', provider: result.provider, name: result.name, account: result.accountName };
    });

    app.post(`${CONNECTIONS_API}/key/:provider`, { bodyLimit: 16 * 1024, config: { rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request) => {
      const caller = await widgetCaller(request, widgetAuth);
      const provider = (request.params as { provider: string }).provider;
      const result = await connections.connectKey(caller.workatoId, provider, request.body);
      return { status: 'success', provider: result.provider, name: result.name, account: result.accountName };
    });

    app.post(`${CONNECTIONS_API}/:id/disconnect`, async (request) => {
      const caller = await widgetCaller(request, widgetAuth);
      const id = parseId((request.params as { id: string }).id, 'The connection id');
      const { revoked } = await connections.disconnect(caller.workatoId, id);
      return { status: 'success', revoked };
    });
  },
  async onStart({ connections, config, contributions }) {
    const flag = sandboxFlag(config.env);
    for (const definition of contributions.all(Connectors)) {
      if (definition.auth.kind === 'none') continue;
      const oauth =
        definition.auth.kind === 'oauth2' ? await resolveOAuth(definition, { config, redirectUri: connections.redirectUri, sandbox: flag }) : undefined;
      if (oauth?.sandbox && definition.sandbox) sandboxesOf(connections).add(definition.sandbox);
      connections.declare(definition, oauth);
    }
  },
  async onStop({ connections }) {
    const started = sandboxesOf(connections);
    for (const s of started) await s.stop?.();
    started.clear();
  },
});

/** The sandboxes a server started for its declared connectors (several connectors may share one). */
const startedSandboxes = new WeakMap<ConnectionService, Set<ConnectorSandbox>>();
function sandboxesOf(connections: ConnectionService): Set<ConnectorSandbox> {
  let set = startedSandboxes.get(connections);
  if (!set) startedSandboxes.set(connections, (set = new Set()));
  return set;
}

export { ConnectionService, PENDING_CONNECT_TTL_SECONDS, type ConnectionView } from './connection-service';
export { TokenCipher } from './token-cipher';
export { ConnectFailedError, NotConnectedError, TokenKeyMissingError, TokenTamperedError, UnknownProviderError } from './errors';
export { OAuthGrantError, type TokenSet } from './oauth-client';
export { Connectors } from './kinds';
export type {
  ConnectionProviderDefinition,
  ConnectorDefinition,
  ConnectorSandbox,
  EndpointSetting,
  OAuthConnectorSettings,
  OAuthProviderSettings,
  ResolvedOAuth,
  SandboxEndpoints,
} from './kinds';
export { sandboxFlag } from './connector-settings';
