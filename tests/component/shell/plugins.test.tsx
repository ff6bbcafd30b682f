import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { screen } from '@testing-library/react';
import { render } from '@testing-library/react';
import * as T from '../../../src/app/tokens';
import { AppRoutes } from '../../../src/app/routes';
import { definePlugin, type ClientPluginRegistry } from '../../../src/app/plugin';
import { useApi } from '../../../src/app/hooks';
import type { ApiClient } from '../../../src/app/services/api-client';
import { Shell } from '../../../src/app/Shell';
import { discoverPlugins } from '../../support/plugin-context';
import { renderInShell, testShell } from '../../support/render';

const repo = path.resolve(__dirname, '../../..');

describe('plugin discovery: dropping a folder in is the whole install', () => {
  const dir = path.join(repo, '.tmp', `plugins-${process.pid}-${Date.now()}`);
  const shellPlugin = (p: string) => path.relative(path.join(dir, 'hello-world'), path.join(repo, p)).replace(/\\/g, '/');

  beforeAll(() => {
    mkdirSync(path.join(dir, 'hello-world'), { recursive: true });
    writeFileSync(
      path.join(dir, 'hello-world', 'index.tsx'),
      `import { definePlugin } from '${shellPlugin('src/app/plugin')}';
export default definePlugin({
  id: 'hello-world',
  routes: [{ path: '/hello', access: 'public', view: { load: () => import('./HelloView') } }],
  workflowViews: { '99999': { load: () => import('./HelloView') } },
});
`,
    );
    writeFileSync(path.join(dir, 'hello-world', 'HelloView.tsx'), `export default function HelloView() { return <h1>Hello from a dropped-in plugin</h1>; }\n`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the new folder, registers its view and serves its route with no other edit', async () => {
    const plugins = [...discoverPlugins(path.join(repo, 'plugins')), ...discoverPlugins(dir)];
    expect(plugins.map((p) => p.id)).toContain('hello-world');
    const shell = testShell({ plugins });
    const registry = shell.container.get<ClientPluginRegistry>(T.PluginRegistry);
    expect(registry.workflowViews.owner(99999)).toBe('hello-world');
    renderInShell(<AppRoutes />, shell, '/hello');
    expect(await screen.findByRole('heading', { name: 'Hello from a dropped-in plugin' })).toBeInTheDocument();
  });

  it('the repository plugins load and claim no key twice', () => {
    const shell = testShell({ plugins: discoverPlugins(path.join(repo, 'plugins')) });
    const registry = shell.container.get<ClientPluginRegistry>(T.PluginRegistry);
    expect(registry.routes.has('/welcome')).toBe(true);
  });

  it('fails with an error naming both plugins when two claim the same route', () => {
    const a = definePlugin({ id: 'first', routes: [{ path: '/x', access: 'public', view: { load: async () => ({ default: () => null }) } }] });
    const b = definePlugin({ id: 'second', routes: [{ path: '/x', access: 'public', view: { load: async () => ({ default: () => null }) } }] });
    const shell = testShell({ plugins: [a, b] });
    expect(() => shell.container.get(T.PluginRegistry)).toThrow('Route "/x" is contributed by both plugin "first" and plugin "second"');
  });
});

describe('the container: testers swap services and plugins for fakes', () => {
  function WhoAmI() {
    const api = useApi();
    return <p>{(api as unknown as { label: string }).label}</p>;
  }

  it('rebinds a service to a fake in one line', () => {
    const shell = testShell({ overrides: (c) => void c.rebind(T.ApiClient).toConstantValue({ label: 'fake api' } as unknown as ApiClient) });
    render(
      <Shell container={shell.container}>
        <WhoAmI />
      </Shell>,
    );
    expect(screen.getByText('fake api')).toBeInTheDocument();
  });

  it('swaps a whole plugin for a fake one', async () => {
    const fake = definePlugin({
      id: 'landing',
      routes: [{ path: '/welcome', access: 'public', view: { load: async () => ({ default: () => <h1>Fake landing</h1> }) } }],
    });
    const shell = testShell({ plugins: [fake] });
    renderInShell(<AppRoutes />, shell, '/welcome');
    expect(await screen.findByRole('heading', { name: 'Fake landing' })).toBeInTheDocument();
  });

  it('gives every service once per container (singletons), and separate containers separate services', () => {
    const a = testShell();
    const b = testShell();
    expect(a.container.get(T.Session)).toBe(a.container.get(T.Session));
    expect(a.container.get(T.EventBus)).not.toBe(b.container.get(T.EventBus));
  });
});
