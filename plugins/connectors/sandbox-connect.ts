import type { FastifyInstance } from 'fastify';
import { forbidden, HttpError, notFound, userOf, type ConnectionService, type ServerConfig } from '../../src/server';
import type { SandboxProviders } from './sandbox/sandbox-server';

export const SANDBOX_ROUTES = '/api/plugins/connectors/sandbox';

/** A connection the one-click sandbox connect made. */
export interface SandboxConnected {
  provider: string;
  name: string;
  account: string;
}

/**
 * Connects one OAuth provider of a user through its sandbox, the way the widget's popup does it
 * but on the server: Connect (ConnectionService.begin), the sandbox's consent form answered
 * "Allow" for `account`, the sandbox's redirect handed to `returned` as the callback would, and
 * `complete` for the same signed-in user, so the tokens are redeemed and stored exactly as a
 * Connect in the browser stores them.
 */
export async function connectThroughSandbox(
  connections: ConnectionService,
  user: { userId: number; managedUserId: number },
  provider: string,
  account: string,
): Promise<SandboxConnected> {
  const { url, cookie } = await connections.begin(user, provider);
  const authorize = new URL(url);
  const consent = await fetch(authorize, { redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  if (consent.status !== 200) throw new Error(`The sandbox sign-in page answered HTTP ${consent.status}.`);
  const form = new URLSearchParams();
  for (const k of ['client_id', 'redirect_uri', 'state', 'code_challenge', 'scope']) form.set(k, authorize.searchParams.get(k) ?? '');
  form.set('account', account);
  form.set('decision', 'allow');
  const answer = await fetch(`${authorize.origin}${authorize.pathname}/decision`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  const location = answer.headers.get('location');
  if (answer.status < 300 || answer.status >= 400 || !location) throw new Error(`The sandbox did not send the sign-in back (HTTP ${answer.status}).`);
  await connections.returned(cookie, new URL(location, authorize).searchParams);
  const done = await connections.complete(cookie, { userId: user.userId });
  return { provider: done.provider, name: done.name, account: done.accountName };
}

/**
 * The sandbox shortcuts of a first run (issue 25), outside production only and only while a
 * provider runs on its sandbox (404 otherwise, as if the routes did not exist):
 *   GET  /api/plugins/connectors/sandbox          { url, providers }: the sandbox page's address and the sandboxed providers
 *   POST /api/plugins/connectors/sandbox/connect  connects every sandboxed OAuth provider the caller has not connected,
 *        as the caller's e-mail address; answers the connections it made and the ones already made
 */
export function registerSandboxRoutes(
  app: FastifyInstance,
  deps: { connections: ConnectionService; config: ServerConfig; sandbox: () => SandboxProviders | undefined },
): void {
  const sandboxed = () => {
    const running = deps.sandbox();
    const providers = deps.connections.providers().filter((p) => p.sandbox && deps.connections.endpoints(p.provider)?.sandbox);
    if (deps.config.production || !running || !providers.length) throw notFound('There is no sandbox on this server.');
    return { url: running.url, providers };
  };

  app.get(SANDBOX_ROUTES, { auth: 'user' }, async () => {
    const { url, providers } = sandboxed();
    return { url, providers: providers.map((p) => ({ provider: p.provider, name: p.name })) };
  });

  app.post(`${SANDBOX_ROUTES}/connect`, { auth: 'user', config: { rateLimit: { max: 10, timeWindow: '1 minute' } } }, async (request) => {
    const { providers } = sandboxed();
    const user = userOf(request);
    if (!user.workatoId) throw forbidden('This account has no workspace yet.');
    const mine = await deps.connections.list(user.workatoId);
    const connected: SandboxConnected[] = [];
    const already: string[] = [];
    for (const p of providers) {
      const row = mine.find((c) => c.provider === p.provider);
      if (row?.authorization_status === 'success') {
        already.push(p.provider);
        continue;
      }
      try {
        connected.push(await connectThroughSandbox(deps.connections, { userId: user.id, managedUserId: user.workatoId }, p.provider, user.email));
      } catch (e) {
        request.log.error({ err: e, provider: p.provider }, 'sandbox connect failed');
        throw new HttpError(502, `The sandbox ${p.name} could not be connected, so the rest was not tried. Press the button again.`);
      }
    }
    return { connected, already_connected: already };
  });
}
