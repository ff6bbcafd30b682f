import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { ServiceContainer as Container } from '../../../src/core/di';
import { createShellContainer, type Clock } from '../../../src/app/container';
import * as T from '../../../src/app/tokens';
import { Shell } from '../../../src/app/Shell';
import { MemoryStorage } from '../../../src/app/services/storage';
import type { PageNavigator } from '../../../src/app/services/navigator';

export interface FakeRequest {
  method: string;
  path: string;
  body: any;
  headers: Record<string, string>;
}
export interface FakeReply {
  status?: number;
  body?: unknown;
}
export type Handler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

/** A fetch that answers by "METHOD /path" and records every call. Unknown calls get a 404. */
export function fakeFetch(handlers: Record<string, Handler>) {
  const calls: FakeRequest[] = [];
  const fn = jest.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const req: FakeRequest = {
      method,
      path,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
      headers: (init?.headers ?? {}) as Record<string, string>,
    };
    calls.push(req);
    const h = handlers[`${method} ${path}`];
    const reply = h ? await h(req) : { status: 404, body: { status: 'error', message: `No route ${method} ${path}` } };
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    return { status: reply.status ?? 200, text: async () => text } as Response;
  });
  return { fetch: fn as unknown as typeof fetch, calls };
}

export function fakeNavigator(): PageNavigator & { assign: jest.Mock; reload: jest.Mock } {
  return { assign: jest.fn(), reload: jest.fn() };
}

/** Shows the router's current location so tests can assert navigation. */
function LocationProbe() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}

export interface RenderOptions {
  path: string;
  routes: Record<string, ReactElement>;
  handlers?: Record<string, Handler>;
  storage?: MemoryStorage;
  now?: number;
}

export function renderRoutes({ path, routes, handlers = {}, storage = new MemoryStorage(), now }: RenderOptions) {
  const navigator = fakeNavigator();
  const { fetch, calls } = fakeFetch(handlers);
  const container: Container = createShellContainer({
    plugins: [],
    hostname: 'localhost',
    storage,
    sessionStorage: new MemoryStorage(),
    navigator,
    fetch,
    // pin the clock (footer year, token expiry) when asked
    overrides: now === undefined ? undefined : (c) => void c.rebind<Clock>(T.Clock).toConstantValue({ now: () => now }),
  });
  const utils = render(
    <Shell container={container}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          {Object.entries(routes).map(([p, el]) => (
            <Route key={p} path={p} element={el} />
          ))}
          <Route path="*" element={<div>elsewhere</div>} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </Shell>,
  );
  return { ...utils, container, navigator, calls, storage };
}

/** The calls made to one path. */
export const callsTo = (calls: FakeRequest[], path: string) => calls.filter((c) => c.path === path);
