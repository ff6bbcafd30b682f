import ExcelJS from 'exceljs';
import reconciliation from '../../../plugins/invoice-reconciliation/server';
import { startWithTwoUsers, type TestServer, type TestUser } from '../../support/server';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

jest.setTimeout(240_000);

const COMPARE = '/api/platform/invoice_reconciliation/comparison';
const RESULTS = '/api/plugins/invoice-reconciliation/results';
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** 250 purchase orders PO-1 … PO-250; invoice i bills i+1 units where i is even (a quantity and a total discrepancy), and one names a formula. */
const N = 250;
function files() {
  const po = ['PO Number,Vendor,Description,Qty,Unit Price,Total'];
  const inv = ['Invoice Number,PO Number,Vendor,Description,Qty,Unit Price,Total'];
  for (let i = 1; i <= N; i++) {
    po.push(`PO-${i},Acme Ltd,Item ${i},${i},1.00,${i}.00`);
    const qty = i % 2 === 0 ? i + 1 : i;
    const description = i === 4 ? '=HYPERLINK("http://x")' : `Item ${i}`;
    inv.push(`INV-${i},PO-${i},Acme Ltd,"${description.replace(/"/g, '""')}",${qty},1.00,${qty}.00`);
  }
  inv.push('INV-999,PO-999,Globex,Toner,1,5.00,5.00');
  return { invoices: `${inv.join('\n')}\n`, orders: `${po.join('\n')}\n` };
}

describe('reconciliation results kept on the server (issue 25)', () => {
  let server: TestServer, ann: TestUser, bob: TestUser;
  let id: string;
  let body: any;
  beforeAll(async () => {
    ({
      server,
      users: [ann, bob],
    } = await startWithTwoUsers({ plugins: [connectorDeclarations, reconciliation] }));
    const { invoices, orders } = files();
    const res = await server.call('POST', `${COMPARE}?view=pages`, {
      token: ann.access,
      body: { combination_id: 10, file1_name: 'invoices.csv', file1_binary: b64(invoices), file2_name: 'orders.csv', file2_binary: b64(orders) },
    });
    expect(res.status).toBe(200);
    body = res.body;
    id = body.result_id;
  });
  afterAll(() => server?.close());

  it('answers a summary and the first 100 rows of each table, not every row', () => {
    expect(body.page_size).toBe(100);
    expect(Object.keys(body).sort()).toEqual(['custom_config', 'default', 'page_size', 'result_id']);
    const side = body.default;
    // 125 even invoices: a quantity and a total discrepancy each
    expect(side.discrepancy_count).toBe(250);
    expect(side.unmatched_count).toBe(1);
    expect(side.first.discrepancies).toHaveLength(100);
    expect(side.first.discrepancies[0]).toMatchObject({ kind: 'quantity', key: 'PO-2', invoice_value: 3, purchase_order_value: 2, delta: 1 });
    expect(side.first.unmatched).toEqual([expect.objectContaining({ side: 'invoice', key: 'PO-999', vendor: 'Globex', total: 5 })]);
    expect(side.metadata).toMatchObject({ invoice_rows: 251, purchase_order_rows: 250, matched_rows: 250, vendor_count: 2 });
    expect(side.metadata.vendors).toBeUndefined();
  });

  it('pages through every row in order, and sorts over all of them', async () => {
    const page = await server.call('GET', `${RESULTS}/${id}/rows?side=default&table=discrepancies&offset=200&limit=100`, { token: ann.access });
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(250);
    expect(page.body.offset).toBe(200);
    expect(page.body.rows).toHaveLength(50);
    expect(page.body.rows.map((d: { key: string; kind: string }) => `${d.kind}:${d.key}`).slice(0, 2)).toEqual(['quantity:PO-202', 'total:PO-202']);
    expect(page.body.rows.at(-1)).toMatchObject({ kind: 'total', key: 'PO-250' });

    // the largest deltas first: invoice 250's total (+1.00) ties with every other +1, so keys in their original order; sorted on the key, naturally
    const byKey = await server.call('GET', `${RESULTS}/${id}/rows?side=default&table=discrepancies&offset=0&limit=4&sort=key&direction=descending`, {
      token: ann.access,
    });
    expect(byKey.body.rows.map((d: { key: string; kind: string }) => `${d.kind}:${d.key}`)).toEqual([
      'quantity:PO-250',
      'total:PO-250',
      'quantity:PO-248',
      'total:PO-248',
    ]);
    const byRow = await server.call('GET', `${RESULTS}/${id}/rows?side=default&table=discrepancies&offset=248&limit=100&sort=invoice_row&direction=ascending`, {
      token: ann.access,
    });
    expect(byRow.body.rows.map((d: { invoice_row: number }) => d.invoice_row)).toEqual([251, 251]);
  });

  it("is the owner's only: another user's request is refused as not kept", async () => {
    const res = await server.call('GET', `${RESULTS}/${id}/rows?side=default&table=discrepancies`, { token: bob.access });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('This result is no longer kept on the server: press Test Configuration again to see it.');
    const dl = await server.call('POST', `${RESULTS}/${id}/download`, { token: bob.access, body: { side: 'default', format: 'csv', table: 'discrepancies' } });
    expect(dl.status).toBe(404);
    expect((await server.call('GET', `${RESULTS}/${id}/rows?side=default&table=discrepancies`)).status).toBe(401);
  });

  it('builds the CSV on the server from the kept result and serves it through a short-lived link, formulas neutralised', async () => {
    const dl = await server.call('POST', `${RESULTS}/${id}/download`, { token: ann.access, body: { side: 'default', format: 'csv', table: 'discrepancies' } });
    expect(dl.status).toBe(200);
    expect(dl.body.name).toBe('reconciliation-default-discrepancies.csv');
    expect(dl.body.url).toMatch(/^\/api\/files\/download\?token=/);
    const file = await server.app.inject({ method: 'GET', url: dl.body.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(
      'attachment; filename="reconciliation-default-discrepancies.csv"; filename*=UTF-8\'\'reconciliation-default-discrepancies.csv',
    );
    const lines = file.body.replace(/^\ufeff/, '').split('\r\n');
    expect(lines).toHaveLength(251);
    expect(lines[0]).toBe('Kind,Key,Field,Vendor,Description,Invoice row,PO row,Invoice value,PO value,Expected value,Delta,Message');
    expect(lines[1]).toBe('quantity,PO-2,quantity,Acme Ltd,Item 2,3,3,3,2,,1,PO-2: invoiced quantity 3 differs from the ordered 2 by +1.');
    expect(lines[3]).toBe(`quantity,PO-4,quantity,Acme Ltd,"'=HYPERLINK(""http://x"")",5,5,5,4,,1,PO-4: invoiced quantity 5 differs from the ordered 4 by +1.`);
    // the same file a second time is the one already built
    const again = await server.call('POST', `${RESULTS}/${id}/download`, {
      token: ann.access,
      body: { side: 'default', format: 'csv', table: 'discrepancies' },
    });
    expect(new URL(again.body.url, 'http://x').searchParams.get('token')).not.toBeNull();
    expect((await server.app.inject({ method: 'GET', url: again.body.url })).body).toBe(file.body);
  });

  it('builds the workbook of a side with every row', async () => {
    const dl = await server.call('POST', `${RESULTS}/${id}/download`, { token: ann.access, body: { side: 'custom_config', format: 'xlsx' } });
    expect(dl.status).toBe(200);
    expect(dl.body.name).toBe('reconciliation-custom-config.xlsx');
    const file = await server.app.inject({ method: 'GET', url: dl.body.url });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Summary', 'Discrepancies', 'Unmatched', 'E-mails']);
    const sheet = book.getWorksheet('Discrepancies')!;
    expect(sheet.rowCount).toBe(251);
    expect((sheet.getRow(4).values as unknown[]).slice(1, 6)).toEqual(['quantity', 'PO-4', 'quantity', 'Acme Ltd', '=HYPERLINK("http://x")']);
    expect(sheet.getRow(4).getCell(5).type).toBe(ExcelJS.ValueType.String);
    expect(book.getWorksheet('Unmatched')!.getRow(2).getCell(2).value).toBe('PO-999');
  });

  it('a new result replaces the previous one', async () => {
    const { invoices } = files();
    const res = await server.call('POST', `${COMPARE}?view=pages`, {
      token: ann.access,
      body: { combination_id: 10, file1_name: 'invoices.csv', file1_binary: b64(invoices) },
    });
    expect(res.status).toBe(200);
    expect(res.body.default.metadata.mode).toBe('invoice-only');
    expect((await server.call('GET', `${RESULTS}/${id}/rows?side=default&table=discrepancies`, { token: ann.access })).status).toBe(404);
    const fresh = await server.call('GET', `${RESULTS}/${res.body.result_id}/rows?side=default&table=unmatched&limit=5`, { token: ann.access });
    expect(fresh.status).toBe(200);
  });
});
