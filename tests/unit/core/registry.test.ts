import { PluginRegistry, isBasicCombination } from '../../../src/core/plugin-registry';
import { DuplicateContributionError, KeyedRegistry } from '../../../src/core/registry';
import { definePlugin, type PluginManifest } from '../../../src/core/plugin';

const view = (name: string) => ({ load: async () => ({ default: name }) });

describe('KeyedRegistry', () => {
  it('keeps contributions by key and remembers the owner', () => {
    const r = new KeyedRegistry<string>('Thing');
    r.register(1, 'one', 'a');
    r.register('two', 'two', 'b');
    expect(r.get('1')).toBe('one');
    expect(r.get(1)).toBe('one');
    expect(r.owner('two')).toBe('b');
    expect(r.keys()).toEqual(['1', 'two']);
    expect(r.size).toBe(2);
    expect(r.has('3')).toBe(false);
  });

  it('rejects a second claim on a key with an error naming both plugins', () => {
    const r = new KeyedRegistry<string>('Workflow view');
    r.register('10002', 'x', 'emotion-analysis');
    expect(() => r.register(10002, 'y', 'my-fork')).toThrow(DuplicateContributionError);
    expect(() => r.register(10002, 'y', 'my-fork')).toThrow('Workflow view "10002" is contributed by both plugin "emotion-analysis" and plugin "my-fork"');
  });
});

describe('PluginRegistry', () => {
  const a: PluginManifest<string> = {
    id: 'a',
    workflowViews: { '10002': view('Emotion') },
    combinationViews: { '10': view('Reconciliation'), basic: view('Basic'), default: view('Default') },
    authorisationRules: [{ combinationId: 9, isAuthorised: () => true, activeConnectionsWeight: 1 }],
    costTiers: { tiers: [{ id: 1, numbers: 1000, base_price: 36.98, currency: 'USD', cycle: 'monthly' }], perRequest: { default: 0.01, '4': 0.02 } },
    connectors: [{ provider: 'xero', name: 'Xero', icon: 'xero', needsAuthorisation: true }],
    routes: [{ path: '/mia', access: 'public', view: view('Mia') }],
  };

  it('collects every kind of contribution', () => {
    const r = new PluginRegistry([a]);
    expect(r.plugins.keys()).toEqual(['a']);
    expect(r.workflowViews.has(10002)).toBe(true);
    expect(r.authorisationRules.get(9)?.activeConnectionsWeight).toBe(1);
    expect(r.costTiers.get(1000)?.base_price).toBe(36.98);
    expect(r.perRequestPrices.get(4)).toBe(0.02);
    expect(r.connectors.get('xero')?.name).toBe('Xero');
    expect(r.routes.get('/mia')?.access).toBe('public');
  });

  it('picks the combination view by id, then "basic" for basic variants, then "default"', async () => {
    const r = new PluginRegistry([a]);
    const name = async (c: { id: number; name: string }) => (await r.combinationViewFor(c)!.load()).default;
    expect(await name({ id: 10, name: 'Invoice reconciliation' })).toBe('Reconciliation');
    expect(await name({ id: 2, name: 'Invoice Data Extraction (basic)' })).toBe('Basic');
    expect(await name({ id: 3, name: 'Document extraction' })).toBe('Default');
    expect(await name({ id: 4, name: 'Basically everything' })).toBe('Default');
  });

  it('fails at construction when two plugins claim one key, naming both', () => {
    const b: PluginManifest<string> = { id: 'b', routes: [{ path: '/mia', access: 'public', view: view('Other') }] };
    expect(() => new PluginRegistry([a, b])).toThrow('Route "/mia" is contributed by both plugin "a" and plugin "b"');
    expect(() => new PluginRegistry([a, { id: 'a' }])).toThrow('Plugin "a" is contributed by both plugin "a" and plugin "a"');
  });

  it('detects basic combinations by the word basic', () => {
    expect(isBasicCombination('Invoice extraction (basic)')).toBe(true);
    expect(isBasicCombination('Invoice Basic')).toBe(true);
    expect(isBasicCombination('Basically')).toBe(false);
  });

  it('definePlugin insists on a kebab-case id', () => {
    expect(() => definePlugin({ id: 'My Plugin' })).toThrow('kebab-case');
    expect(definePlugin({ id: 'my-plugin' }).id).toBe('my-plugin');
  });
});
