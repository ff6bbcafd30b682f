import { PluginRegistry } from '../../../src/core/plugin-registry';
import { activeConnectionsCount, authorisationSourceFrom, isAuthorised, withAuthorisation } from '../../../src/core/catalogue';
import connectorsPlugin from '../../../plugins/connectors';
import invoiceExtraction from '../../../plugins/invoice-extraction';
import invoiceReconciliation from '../../../plugins/invoice-reconciliation';
import financialAnalysis from '../../../plugins/financial-analysis';
import { combination, connection } from './fixtures';

const registry = new PluginRegistry([connectorsPlugin, invoiceExtraction, invoiceReconciliation, financialAnalysis]);
const source = authorisationSourceFrom(registry);

const conn = (provider: string, id = 1, order = 1) => ({ id, name: provider, icon: '', order, provider });

describe('authorisation rules from plugin contributions', () => {
  it('combination 9 needs a successful xero connection', () => {
    expect(isAuthorised(combination(9), [], source)).toBe(false);
    expect(isAuthorised(combination(9), [connection('xero', null)], source)).toBe(false);
    expect(isAuthorised(combination(9), [connection('google_drive')], source)).toBe(false);
    expect(isAuthorised(combination(9), [connection('xero')], source)).toBe(true);
  });

  it('combination 1 needs google_drive or google_sheets with status success', () => {
    expect(isAuthorised(combination(1), [], source)).toBe(false);
    expect(isAuthorised(combination(1), [connection('google_drive', null)], source)).toBe(false);
    expect(isAuthorised(combination(1), [connection('xero')], source)).toBe(false);
    expect(isAuthorised(combination(1), [connection('google_drive')], source)).toBe(true);
    expect(isAuthorised(combination(1), [connection('google_sheets')], source)).toBe(true);
  });

  it.each([8, 10, 11])('combination %i is always authorised', (id) => {
    expect(isAuthorised(combination(id, { connectors: [conn('xero')] }), [], source)).toBe(true);
  });

  it('other combinations: authorised when every connector that needs authorisation is connected', () => {
    const c = combination(5, { connectors: [conn('google_sheets', 1), conn('manual_upload', 2), conn('flowmatic_ai', 3)] });
    expect(isAuthorised(c, [], source)).toBe(false);
    expect(isAuthorised(c, [connection('google_sheets', null)], source)).toBe(false);
    expect(isAuthorised(c, [connection('google_sheets')], source)).toBe(true);
  });

  it('other combinations made only of steps that need no authorisation are authorised', () => {
    const c = combination(6, { connectors: [conn('manual_upload'), conn('manual_email'), conn('flowmatic_ai')] });
    expect(isAuthorised(c, [], source)).toBe(true);
    expect(isAuthorised(combination(7, { connectors: [] }), [], source)).toBe(true);
  });

  it('a provider no plugin contributes counts as needing a connection', () => {
    const c = combination(5, { connectors: [conn('dropbox')] });
    expect(isAuthorised(c, [], source)).toBe(false);
    expect(isAuthorised(c, [connection('dropbox')], source)).toBe(true);
  });

  it('withAuthorisation sets the client-computed authed field', () => {
    const out = withAuthorisation([combination(9), combination(8)], [], source);
    expect(out.map((c) => c.authed)).toEqual([false, true]);
  });
});

describe('Active Connections counter', () => {
  const all = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((id) => combination(id));

  it('is 0 without connections (8, 10, 11 are authorised but weigh nothing)', () => {
    expect(activeConnectionsCount(all, [], source)).toBe(0);
  });

  it('adds 1 for an authorised combination 9', () => {
    expect(activeConnectionsCount(all, [connection('xero')], source)).toBe(1);
  });

  it('adds 2 for an authorised combination 1', () => {
    expect(activeConnectionsCount(all, [connection('google_sheets')], source)).toBe(2);
  });

  it('adds both: 3 with xero and google drive', () => {
    expect(activeConnectionsCount(all, [connection('xero'), connection('google_drive')], source)).toBe(3);
  });

  it('only counts combinations present in the list', () => {
    expect(activeConnectionsCount([combination(9)], [connection('xero'), connection('google_drive')], source)).toBe(1);
  });

  it('reads the weight from the rule contribution', () => {
    expect(registry.authorisationRules.get(9)?.activeConnectionsWeight).toBe(1);
    expect(registry.authorisationRules.get(1)?.activeConnectionsWeight).toBe(2);
    for (const id of [8, 10, 11]) expect(registry.authorisationRules.get(id)?.activeConnectionsWeight).toBe(0);
  });
});
