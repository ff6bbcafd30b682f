import type { TestServer, TestUser } from '../../support/server';

/** The widget token of a user (POST /api/platform/workatoToken). */
export async function widgetToken(server: TestServer, user: TestUser): Promise<string> {
  const res = await server.call('POST', '/api/platform/workatoToken', { token: user.access, body: { WK_USER_ID: user.workatoId } });
  if (res.status !== 200) throw new Error(`workatoToken: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token;
}

export interface ConnectSteps {
  /** the HttpOnly cookie the Connect set */
  cookie: string;
  /** the sandbox's redirect back to the callback (code and state) */
  callback: URL;
}

/**
 * Presses Connect (the popup's first request), then answers the sandbox consent page as a
 * browser would; returns the cookie and the provider's redirect, not yet delivered.
 */
export async function consent(server: TestServer, token: string, provider: string, opts: { account?: string; decision?: 'allow' | 'deny' } = {}): Promise<ConnectSteps> {
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
  return { cookie: cookie.split(';')[0], callback: new URL(decided.headers.get('location')!) };
}

/** Delivers the provider's redirect to the callback with a cookie; returns where it ends (the done page's query). */
export async function deliver(server: TestServer, callback: URL, cookie: string | undefined): Promise<URLSearchParams> {
  const res = await server.call('GET', `${callback.pathname}${callback.search}`, { headers: cookie ? { cookie } : {} });
  if (res.status !== 302) throw new Error(`callback: ${res.status} ${JSON.stringify(res.body)}`);
  const to = new URL(String(res.headers.location), 'http://x');
  if (to.pathname !== '/connections/done') throw new Error(`callback went to ${to.pathname}`);
  return to.searchParams;
}

/** Connect end to end; returns the done page's query. */
export async function connect(server: TestServer, token: string, provider: string, account?: string): Promise<URLSearchParams> {
  const { cookie, callback } = await consent(server, token, provider, { account });
  return deliver(server, callback, cookie);
}
