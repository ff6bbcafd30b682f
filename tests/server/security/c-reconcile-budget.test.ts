/**
 * Issue 21 (round three): a reconciliation reads at most RECONCILE_MAX_ROWS rows per file; a
 * bigger file (a million rows fitted under the upload limit) is refused with a sentence about it.
 */
import reconciliation from '../../../plugins/invoice-reconciliation/server';
import { RECONCILE_MAX_ROWS } from '../../../plugins/invoice-reconciliation/engine/compare';
import { startWithTwoUsers, type TestServer, type TestUser } from '../../support/server';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const COMPARE = '/api/platform/invoice_reconciliation/comparison';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const rows = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${i},PO-${i},1.00`).join('\n');

describe('the reconciliation row budget', () => {
  let server: TestServer, ann: TestUser;
  beforeAll(
    async () =>
      ({
        server,
        users: [ann],
      } = await startWithTwoUsers({ plugins: [connectorDeclarations, reconciliation] })),
  );
  afterAll(() => server?.close());

  it(`refuses an invoice file of ${RECONCILE_MAX_ROWS + 1} rows with a clear 400, before matching`, async () => {
    const invoices = `Invoice Number,PO Number,Total\n${rows(RECONCILE_MAX_ROWS + 1, 'I')}\n`;
    const orders = `PO Number,Total\n${Array.from({ length: 10 }, (_, i) => `PO-${i},1.00`).join('\n')}\n`;
    const started = Date.now();
    const res = await server.call('POST', COMPARE, {
      token: ann.access,
      body: { combination_id: 10, file1_name: 'invoices.csv', file1_binary: b64(invoices), file2_name: 'orders.csv', file2_binary: b64(orders) },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'error',
      message: 'The file "invoices.csv" has more than 50,000 rows, the most one comparison may read. Split it and compare the parts.',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('compares a file at the budget', async () => {
    const invoices = `Invoice Number,PO Number,Total\n${rows(RECONCILE_MAX_ROWS, 'I')}\n`;
    const res = await server.call('POST', COMPARE, {
      token: ann.access,
      body: { combination_id: 10, file1_name: 'invoices.csv', file1_binary: b64(invoices) },
    });
    expect(res.status).toBe(200);
    expect(res.body.default.metadata.invoice_rows).toBe(RECONCILE_MAX_ROWS);
  });
});
