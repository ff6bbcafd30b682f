/**
 * A fetch stand-in for component and unit tests: routes "METHOD /path" to handlers and records
 * every call. Unrouted calls answer 404 JSON.
 */
export interface FakeCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export type FakeHandler = (call: FakeCall) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>;

/** "METHOD /path" (with or without the query) → a reply or a handler. */
export type FakeRoutes = Record<string, FakeHandler | { status?: number; body?: unknown }>;

export function fakeFetch(routes: FakeRoutes = {}) {
  const calls: FakeCall[] = [];
  const fn = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname + url.search;
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>));
    let body: unknown = init.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        /* keep text */
      }
    }
    const call: FakeCall = { method: (init.method ?? 'GET').toUpperCase(), path, headers, body };
    calls.push(call);
    const route = routes[`${call.method} ${path}`] ?? routes[`${call.method} ${url.pathname}`];
    const res =
      route === undefined ? { status: 404, body: { status: 'error', message: 'Not found.' } } : typeof route === 'function' ? await route(call) : route;
    const status = res.status ?? 200;
    const text = res.body === undefined ? '' : JSON.stringify(res.body);
    return new Response(text, { status, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  return Object.assign(fn, { calls, routes });
}

/** A JWT-shaped token whose payload carries `exp` (seconds); the signature is not checked in the browser. */
export function fakeJwt(expSeconds: number, sub = '1001'): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub, exp: expSeconds, token_type: 'access' })}.sig`;
}
