import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { screen } from '@testing-library/react';
import { AppRoutes } from '../../../src/app/routes';
import { PluginRegistry } from '../../../src/app/tokens';
import { discoverPlugins } from '../../support/plugin-context';
import { renderInShell, testShell } from '../../support/render';

const repo = path.resolve(__dirname, '../../..');

/**
 * The browser half of the drop-in proof: a plugin folder declares a contribution kind of its own
 * and serves a route whose view lists that kind's contributions; a second dropped-in folder
 * contributes to it. Neither folder nor the core is edited for the other.
 */
describe('a contribution kind declared by one dropped-in plugin and filled by another', () => {
  const dir = path.join(repo, '.tmp', `kinds-${process.pid}-${Date.now()}`);
  const face = (folder: string) => path.relative(path.join(dir, folder), path.join(repo, 'src/app')).replace(/\\/g, '/');
  const core = (folder: string) => path.relative(path.join(dir, folder), path.join(repo, 'src/core')).replace(/\\/g, '/');

  beforeAll(() => {
    mkdirSync(path.join(dir, 'vat-check'), { recursive: true });
    mkdirSync(path.join(dir, 'vat-eu'), { recursive: true });
    writeFileSync(
      path.join(dir, 'vat-check', 'kinds.ts'),
      `import { contributionKind } from '${core('vat-check')}';
export interface VatCountry { code: string; name: string }
export const VatCountries = contributionKind<VatCountry>('vat-check.country', 'VAT country', (c) => c.code);
`,
    );
    writeFileSync(
      path.join(dir, 'vat-check', 'index.tsx'),
      `import { definePlugin } from '${face('vat-check')}';
import { VatCountries } from './kinds';
export default definePlugin({
  id: 'vat-check',
  declares: [VatCountries],
  routes: [{ path: '/vat-check', access: 'public', view: { load: () => import('./VatView') } }],
});
`,
    );
    writeFileSync(
      path.join(dir, 'vat-check', 'VatView.tsx'),
      `import { useRegistry } from '${face('vat-check')}';
import { VatCountries } from './kinds';
export default function VatView() {
  const countries = useRegistry().of(VatCountries).values();
  return <ul aria-label="VAT countries">{countries.map((c) => <li key={c.code}>{c.name}</li>)}</ul>;
}
`,
    );
    writeFileSync(
      path.join(dir, 'vat-eu', 'index.ts'),
      `import { definePlugin } from '${face('vat-eu')}';
import { contribute } from '${core('vat-eu')}';
import { VatCountries } from '../vat-check/kinds';
export default definePlugin({ id: 'vat-eu', contributes: [contribute(VatCountries, { code: 'DE', name: 'Germany' }), contribute(VatCountries, { code: 'FR', name: 'France' })] });
`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("renders the other plugin's contributions in the declaring plugin's view", async () => {
    const shell = testShell({ plugins: discoverPlugins(dir) });
    renderInShell(<AppRoutes />, shell, '/vat-check');
    const list = await screen.findByRole('list', { name: 'VAT countries' });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['Germany', 'France']);
  });

  it('refuses a contribution to a kind nobody declares, naming the plugin', () => {
    const plugins = discoverPlugins(dir).filter((p) => p.id !== 'vat-check');
    const shell = testShell({ plugins });
    expect(() => shell.container.get(PluginRegistry)).toThrow('Plugin "vat-eu" contributes to "vat-check.country", which no plugin declares');
  });
});
