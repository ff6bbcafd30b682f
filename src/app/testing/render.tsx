import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { Token } from '../../core/di';
import type { AnyFake } from '../../core/testing';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { ServiceContainer as Container } from '../../core/di';
import { createShellContainer, type ShellOptions } from '../container';
import { Shell } from '../Shell';
import { MemoryStorage } from '../services/storage';
import { fakeFetch, type FakeRoutes } from './fake-fetch';

export function LocationProbe() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}

/** A logged-in browser storage: isAuth, userId, workatoId and an auth record valid for an hour. */
export function loggedInStorage(userId = 1001, workatoId = 100001): MemoryStorage {
  const s = new MemoryStorage();
  s.setItem('isAuth', 'true');
  s.setItem('userId', String(userId));
  s.setItem('workatoId', String(workatoId));
  s.setItem('auth', JSON.stringify({ expire: Date.now() + 3_600_000, token: 'test-access', refresh_token: 'test-refresh' }));
  s.setItem('token', 'test-access');
  return s;
}

export interface TestShell {
  container: Container;
  fetch: ReturnType<typeof fakeFetch>;
  navigator: { assign: jest.Mock; reload: jest.Mock };
  storage: MemoryStorage;
}

/** A shell container with in-memory storage, a fake fetch and a fake page navigator. */
export function testShell(opts: Partial<ShellOptions> & { routes?: FakeRoutes; loggedIn?: boolean } = {}): TestShell {
  const fetch = fakeFetch(opts.routes ?? {});
  const navigator = { assign: jest.fn(), reload: jest.fn() };
  const storage = (opts.storage as MemoryStorage) ?? (opts.loggedIn ? loggedInStorage() : new MemoryStorage());
  const container = createShellContainer({
    plugins: opts.plugins ?? [],
    hostname: opts.hostname ?? 'localhost',
    storage,
    sessionStorage: opts.sessionStorage ?? new MemoryStorage(),
    navigator,
    fetch,
    overrides: opts.overrides,
  });
  return { container, fetch, navigator, storage };
}

export interface RenderInShellOptions {
  /** the page address the view is shown at (default '/') */
  path?: string;
  /**
   * The fake API server: "METHOD /path" (with or without the query) → a reply `{ status?, body? }`
   * or a function of the call. Unrouted calls answer 404 JSON; every call is kept in `fetch.calls`.
   */
  routes?: FakeRoutes;
  /**
   * Services replaced before anything resolves, each checked against its token's type:
   * `fakes: [fake(T.Breadcrumbs, { set: () => undefined }), fake(MyService, { load: async () => [] })]`.
   * A member a fake lacks fails when called, naming it.
   */
  fakes?: readonly AnyFake[];
  /** the browser plugins the shell knows (their services, contribution kinds, registry), default none */
  plugins?: ShellOptions['plugins'];
  /** a logged-in user's storage (default true) */
  loggedIn?: boolean;
}

/** What renderInShell gives: Testing Library's result plus the shell (its fake fetch with the calls made, navigator, storage, container). */
export type ShellRender = RenderResult & { shell: TestShell };

/**
 * Renders `ui` inside the shell's providers and a MemoryRouter:
 *
 *   const view = renderInShell(<MyWorkflowView workflowId={900001} />, {
 *     path: '/workflow/900001',
 *     routes: { 'POST /api/plugins/my-workflow/check': { body: { valid: true } } },
 *     fakes: [fake(T.Breadcrumbs, { set: () => undefined })],
 *   });
 *   expect(view.shell.fetch.calls).toEqual([...]);
 *
 * (The older form, `renderInShell(ui, testShell({...}), path)`, renders in a shell made beforehand.)
 */
export function renderInShell(ui: ReactElement, options?: RenderInShellOptions): ShellRender;
export function renderInShell(ui: ReactElement, shell: TestShell, path?: string): RenderResult;
export function renderInShell(ui: ReactElement, shellOrOptions: TestShell | RenderInShellOptions = {}, path = '/'): RenderResult | ShellRender {
  if (!('container' in shellOrOptions)) {
    const o = shellOrOptions;
    const shell = testShell({
      routes: o.routes,
      plugins: o.plugins,
      loggedIn: o.loggedIn ?? true,
      overrides: (c) => {
        for (const f of o.fakes ?? []) c.replace(f.token as Token<unknown>, f.value);
      },
    });
    return Object.assign(mount(ui, shell, o.path ?? '/'), { shell });
  }
  return mount(ui, shellOrOptions, path);
}

function mount(ui: ReactElement, shell: TestShell, path: string): RenderResult {
  return render(
    <Shell container={shell.container}>
      <MemoryRouter initialEntries={[path]}>
        {ui}
        <LocationProbe />
      </MemoryRouter>
    </Shell>,
  );
}
