import { decodeJwt } from 'jose';
import * as T from '../../../src/server/tokens';
import type { TokenService } from '../../../src/server/auth/token-service';
import type { TestServer, TestUser } from '../../support/server';

/** The widget token of a user (POST /api/platform/workatoToken). */
export async function widgetToken(server: TestServer, user: TestUser): Promise<string> {
  const res = await server.call('POST', '/api/platform/workatoToken', { token: user.access, body: { WK_USER_ID: user.workatoId } });
  if (res.status !== 200) throw new Error(`workatoToken: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token;
}

/**
 * An access token of the browser session a widget token was issued in (the signed-in user who
 * pressed Connect): same user, same session, current password generation.
 */
export async function sessionOfWidgetToken(server: TestServer, widget: string): Promise<string> {
  const claims = decodeJwt(widget) as { uid?: number; sid?: string };
  const user = await server.db.selectFrom('users').select('token_version').where('id', '=', Number(claims.uid)).executeTakeFirstOrThrow();
  const tokens = server.container.get<TokenService>(T.TokenService);
  return (await tokens.sessionPair(Number(claims.uid), user.token_version, claims.sid)).access;
}

export interface ConnectSteps {
  /** the HttpOnly cookie the Connect set */
  cookie: string;
  /** the access token of the signed-in session that pressed Connect */
  session: string;
  /** the sandbox's redirect back to the callback (code and state) */
  callback: URL;
}

/**
 * Presses Connect (the popup's first request), then answers the sandbox consent page as a
 * browser would; returns the cookie and the provider's redirect, not yet delivered.
 */
export async function consent(
  server: TestServer,
  token: string,
  provider: string,
  opts: { account?: string; decision?: 'allow' | 'deny' } = {},
): Promise<ConnectSteps> {
  const start = await server.call('GET', `/api/connections/connect/${provider}?token=${encodeURIComponent(token)}`);
  if (start.status !== 302) throw new Error(`connect: ${start.status} ${JSON.stringify(start.body)}`);
  const setCookie = ([] as string[]).concat(start.headers['set-cookie'] as string | string[]);
  const cookie = setCookie.find((c) => c.startsWith('fm_connect='))!;
  const authorize = new URL(String(start.headers.location));
  const page = await fetch(authorize);
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${await page.text()}`);
  const form = new URLSearchParams();
  for (const k of ['client_id', 'redirect_uri', 'state', 'code_challenge', 'scope']) form.set(k, authorize.searchParams.get(k) ?? '');
  form.set('account', opts.account ?? 'alice@example.com');
  form.set('decision', opts.decision ?? 'allow');
  const decided = await fetch(`${authorize.origin}${authorize.pathname}/decision`, { method: 'POST', body: form, redirect: 'manual' });
  if (decided.status !== 302) throw new Error(`decision: ${decided.status} ${await decided.text()}`);
  return { cookie: cookie.split(';')[0], session: await sessionOfWidgetToken(server, token), callback: new URL(decided.headers.get('location')!) };
}

/** The provider's redirect delivered to the callback with a cookie: where it sends the browser (the done page's query). */
export async function callbackOnly(server: TestServer, callback: URL, cookie: string | undefined): Promise<URLSearchParams> {
  const res = await server.call('GET', `${callback.pathname}${callback.search}`, { headers: cookie ? { cookie } : {} });
  if (res.status !== 302) throw new Error(`callback: ${res.status} ${JSON.stringify(res.body)}`);
  const to = new URL(String(res.headers.location), 'http://x');
  if (to.pathname !== '/connections/done') throw new Error(`callback went to ${to.pathname}`);
  return to.searchParams;
}

/** The done page's confirmation: POST /api/connections/complete with the cookie, as the signed-in session (if any). */
export async function confirm(server: TestServer, cookie: string | undefined, session: string | undefined) {
  return server.call('POST', '/api/connections/complete', { token: session, headers: cookie ? { cookie } : {}, body: {} });
}

/**
 * Delivers the provider's redirect to the callback with a cookie, then (as the done page does)
 * confirms it as the signed-in session; returns the outcome as the done page shows it:
 * { provider, result: 'connected', account } or { result: 'error', reason, message }.
 */
export async function deliver(server: TestServer, callback: URL, cookie: string | undefined, session?: string): Promise<URLSearchParams> {
  const back = await callbackOnly(server, callback, cookie);
  if (back.get('result') !== 'confirm' || !session) return back;
  const res = await confirm(server, cookie, session);
  if (res.status === 200) return new URLSearchParams({ provider: res.body.provider, result: 'connected', account: res.body.account });
  return new URLSearchParams({ result: 'error', reason: String(res.body?.reason ?? ''), message: String(res.body?.message ?? '') });
}

/** Connect end to end as the signed-in user of the widget token; returns the outcome. */
export async function connect(server: TestServer, token: string, provider: string, account?: string): Promise<URLSearchParams> {
  const { cookie, session, callback } = await consent(server, token, provider, { account });
  return deliver(server, callback, cookie, session);
}
