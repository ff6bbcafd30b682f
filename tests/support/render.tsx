import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { ServiceContainer as Container } from '../../src/core/di';
import { createShellContainer, type ShellOptions } from '../../src/app/container';
import { Shell } from '../../src/app/Shell';
import { MemoryStorage } from '../../src/app/services/storage';
import { fakeFetch } from './fake-fetch';

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
export function testShell(opts: Partial<ShellOptions> & { routes?: Parameters<typeof fakeFetch>[0]; loggedIn?: boolean } = {}): TestShell {
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

/** Renders `ui` inside the shell's providers and a MemoryRouter at `path`. */
export function renderInShell(ui: ReactElement, shell: TestShell, path = '/') {
  return render(
    <Shell container={shell.container}>
      <MemoryRouter initialEntries={[path]}>
        {ui}
        <LocationProbe />
      </MemoryRouter>
    </Shell>,
  );
}
