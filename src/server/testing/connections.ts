import { decodeJwt } from 'jose';
import * as T from '../tokens';
import type { TestServer, TestUser } from './server';

/** The widget token of a user (POST /api/platform/workatoToken), as the connections widget gets it. */
export async function widgetToken(server: TestServer, user: TestUser): Promise<string> {
  const res = await server.call('POST', '/api/platform/workatoToken', { token: user.access, body: { WK_USER_ID: user.workatoId } });
  if (res.status !== 200) throw new Error(`workatoToken: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token;
}

/** An access token of the browser session a widget token was issued in (same user, same session). */
async function sessionOf(server: TestServer, widget: string): Promise<string> {
  const claims = decodeJwt(widget) as { uid?: number; sid?: string };
  const user = await server.db.selectFrom('users').select('token_version').where('id', '=', Number(claims.uid)).executeTakeFirstOrThrow();
  return (await server.container.get(T.TokenService).sessionPair(Number(claims.uid), user.token_version, claims.sid)).access;
}

/**
 * Connects `user`'s account of an OAuth connector through its sandbox, the way the widget's popup
 * does it: Connect (the HttpOnly cookie), the sandbox's consent (a sandbox that redirects back at
 * once, or one with the core's Allow/Deny page), the callback, and the done page's confirmation.
 * Start the server with SANDBOX_PROVIDERS=true (or no client id outside production).
 * Resolves with `{ provider, name, account }`; any refusal throws with the reply.
 */
export async function connectAccount(
  server: TestServer,
  user: TestUser,
  provider: string,
  opts: { account?: string } = {},
): Promise<{ provider: string; name: string; account: string }> {
  const widget = await widgetToken(server, user);
  const start = await server.call('GET', `/api/connections/connect/${provider}?token=${encodeURIComponent(widget)}`);
  if (start.status !== 302) throw new Error(`Connect ${provider}: HTTP ${start.status} ${JSON.stringify(start.body)}`);
  const cookie = ([] as string[])
    .concat(start.headers['set-cookie'] as string | string[])
    .find((c) => c?.startsWith('fm_connect='))
    ?.split(';')[0];
  if (!cookie) throw new Error(`Connect ${provider} set no cookie`);
  const authorize = new URL(String(start.headers.location));
  let answer = await fetch(authorize, { redirect: 'manual' });
  if (answer.status === 200) {
    // the core sandboxes' consent page: a form posted to <authorize>/decision
    const form = new URLSearchParams();
    for (const k of ['client_id', 'redirect_uri', 'state', 'code_challenge', 'scope']) form.set(k, authorize.searchParams.get(k) ?? '');
    form.set('account', opts.account ?? user.email);
    form.set('decision', 'allow');
    answer = await fetch(`${authorize.origin}${authorize.pathname}/decision`, { method: 'POST', body: form, redirect: 'manual' });
  }
  const location = answer.headers.get('location');
  if (answer.status < 300 || answer.status >= 400 || !location)
    throw new Error(`The ${provider} sandbox did not send the browser back: HTTP ${answer.status} ${await answer.text()}`);
  const callback = new URL(location, authorize);
  const back = await server.call('GET', `${callback.pathname}${callback.search}`, { headers: { cookie } });
  const done = new URL(String(back.headers.location ?? ''), 'http://localhost');
  if (back.status !== 302 || done.searchParams.get('result') !== 'confirm')
    throw new Error(`The callback of ${provider} refused: HTTP ${back.status} ${done.search || JSON.stringify(back.body)}`);
  const confirmed = await server.call('POST', '/api/connections/complete', { token: await sessionOf(server, widget), headers: { cookie }, body: {} });
  if (confirmed.status !== 200) throw new Error(`Confirming ${provider}: HTTP ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  const { provider: connected, name, account } = confirmed.body as { provider: string; name: string; account: string };
  return { provider: connected, name, account };
}
