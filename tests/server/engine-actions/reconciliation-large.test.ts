import ExcelJS from 'exceljs';
import catalogueCore from '../../../plugins/catalogue-core/server';
import invoiceReconciliation from '../../../plugins/invoice-reconciliation/server';
import type { TestServer, TestUser } from '../../support/server';
import * as T from '../../../src/server/tokens';
import { actionServer, createUser, readyRecipe, stepOutput, waitForJob, webhookPath, type Rec } from './support';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

jest.setTimeout(300_000);

/**
 * Issue 19: the reconciliation step on 100,000 rows (50,000 invoices against 50,000 purchase
 * orders, the per-file budget). Its whole result is far over the 256 KB a step may keep, so the
 * step stores it in the owner's file store as a workbook and keeps a summary and the file's
 * reference; the job view offers the download. The totals are those the files were built with.
 */
const N = 50_000;
/** 2,000 vendors: their summaries alone (each with sample lines) are megabytes, far over a step's 256 KB */
const VENDORS = Array.from({ length: 2000 }, (_, i) => `Vendor ${String(i).padStart(4, '0')} Ltd`);
const cents = (n: number) => Math.round(n * 100);

/** Purchase orders PO-1 … PO-50000; every 10th invoice bills one unit more than ordered, every 25th names a PO that does not exist. */
function files() {
  const po = ['PO Number,Vendor,Vendor Email,Description,Qty,Unit Price,Total'];
  const inv = ['Invoice Number,PO Number,Vendor,Description,Qty,Unit Price,Total'];
  const e = { qtyOff: 0, unknownPo: 0, invoiceCents: 0, orderCents: 0, matchedInvoiceCents: 0, matchedOrderCents: 0 };
  for (let i = 1; i <= N; i++) {
    const vendor = VENDORS[i % VENDORS.length];
    const qty = (i % 9) + 1;
    const unit = ((i % 13) + 1) * 1.25;
    const ordered = cents(qty * unit);
    po.push(`PO-${i},${vendor},ar${i % VENDORS.length}@vendor.example,Item ${i},${qty},${unit.toFixed(2)},${(qty * unit).toFixed(2)}`);
    e.orderCents += ordered;
    if (i % 25 === 0) {
      // an invoice naming a PO that does not exist (and its PO never invoiced)
      e.unknownPo += 1;
      e.invoiceCents += ordered;
      inv.push(`INV-${i},PO-X${i},${vendor},Item ${i},${qty},${unit.toFixed(2)},${(qty * unit).toFixed(2)}`);
    } else if (i % 10 === 0) {
      // one unit more than ordered: a quantity and a total discrepancy
      e.qtyOff += 1;
      const billed = cents((qty + 1) * unit);
      e.invoiceCents += billed;
      e.matchedInvoiceCents += billed;
      e.matchedOrderCents += ordered;
      inv.push(`INV-${i},PO-${i},${vendor},Item ${i},${qty + 1},${unit.toFixed(2)},${((qty + 1) * unit).toFixed(2)}`);
    } else {
      e.invoiceCents += ordered;
      e.matchedInvoiceCents += ordered;
      e.matchedOrderCents += ordered;
      inv.push(`INV-${i},PO-${i},${vendor},Item ${i},${qty},${unit.toFixed(2)},${(qty * unit).toFixed(2)}`);
    }
  }
  return { invoices: `${inv.join('\n')}\n`, orders: `${po.join('\n')}\n`, expected: e };
}

function multipart(parts: Array<{ name: string; filename?: string; type?: string; body: string }>): { payload: Buffer; boundary: string } {
  const boundary = '----reconcile100k';
  const chunks = parts.map((p) =>
    [
      `--${boundary}`,
      `Content-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`,
      ...(p.type ? [`Content-Type: ${p.type}`] : []),
      '',
      p.body,
    ].join('\r\n'),
  );
  return { payload: Buffer.from(`${chunks.join('\r\n')}\r\n--${boundary}--\r\n`), boundary };
}

describe('the reconciliation step on 100,000 rows', () => {
  let server: TestServer;
  let user: TestUser;
  let rec: Rec;

  beforeAll(async () => {
    server = await actionServer([catalogueCore, connectorDeclarations, invoiceReconciliation], {
      env: { MAX_UPLOAD_MB: '8' },
      options: { stepTimeoutMs: 240_000, aiStepTimeoutMs: 240_000 },
    });
    user = await createUser(server);
    ({ rec } = await readyRecipe(server, 10, user));
  });
  afterAll(() => server.close());

  it("keeps a summary with the exact totals and the full result as a workbook in the owner's files", async () => {
    const { invoices, orders, expected } = files();
    const { payload, boundary } = multipart([
      { name: 'email', body: 'ap@example.com' },
      { name: 'file1', filename: 'invoices.csv', type: 'text/csv', body: invoices },
      { name: 'file2', filename: 'purchase-orders.csv', type: 'text/csv', body: orders },
    ]);
    const t0 = Date.now();
    const res = await server.app.inject({
      method: 'POST',
      url: webhookPath(rec),
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(200);
    const { job } = await waitForJob(server, user, res.json().job_id, ['succeeded', 'failed'], 280_000);
    console.log(`100k-row reconciliation job: ${Date.now() - t0} ms; ${JSON.stringify(job.error)}`);
    expect(job.error).toBeNull();
    expect(job.status).toBe('succeeded');
    const out = await stepOutput(server, job.id, 1);
    const bytes = Buffer.byteLength(JSON.stringify(out));
    console.log(`step output: ${bytes} bytes; listed ${JSON.stringify(out.listed)}; workbook ${out.result_file.size} bytes`);
    expect(bytes).toBeLessThanOrEqual(200 * 1024);

    // the totals, exactly as the files were built
    expect(out.metadata).toMatchObject({
      mode: 'reconciliation',
      invoice_file: 'invoices.csv',
      purchase_order_file: 'purchase-orders.csv',
      invoice_rows: 50_000,
      purchase_order_rows: 50_000,
      matched_rows: 48_000,
      clean_matched_rows: 44_000,
      lines_with_discrepancies: expected.qtyOff,
      unmatched_invoice_rows: expected.unknownPo,
      unmatched_purchase_order_rows: expected.unknownPo,
      discrepancy_count: 8_000,
      discrepancies_by_kind: { quantity: 4_000, total: 4_000 },
      vendor_count: 2_000,
    });
    expect(expected).toMatchObject({ qtyOff: 4_000, unknownPo: 2_000 });
    expect(cents(out.metadata.invoice_total)).toBe(expected.invoiceCents);
    expect(cents(out.metadata.purchase_order_total)).toBe(expected.orderCents);
    expect(cents(out.metadata.matched_invoice_total)).toBe(expected.matchedInvoiceCents);
    expect(cents(out.metadata.matched_purchase_order_total)).toBe(expected.matchedOrderCents);
    expect(cents(out.metadata.total_difference)).toBe(expected.invoiceCents - expected.orderCents);
    expect(out.metadata.vendors).toHaveLength(20);
    expect(out.metadata.vendors.every((v: Record<string, unknown>) => !('clean_sample' in v))).toBe(true);
    expect([out.discrepancy_count, out.unmatched_count]).toEqual([8_000, 4_000]);
    expect(out.discrepancies).toHaveLength(out.listed.discrepancies);
    expect(out.unmatched_records).toHaveLength(out.listed.unmatched_records);
    expect(out.subject).toBe('Reconciliation of invoices.csv: 8000 discrepancies, 4000 unmatched');
    expect(out.to).toBe('ap@example.com');

    // the whole result: a workbook in the owner's files, every discrepancy and unmatched row in it
    expect(out.result_file).toMatchObject({ bucket: 'automation', name: 'reconciliation-invoices.xlsx', kind: 'xlsx' });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await server.container.get(T.FileStore).read(user.id, out.result_file.bucket, out.result_file.key)) as any);
    const rowsOf = (name: string) => {
      const sheet = book.worksheets.find((w) => w.name.toLowerCase().startsWith(name));
      if (!sheet) throw new Error(`no ${name} sheet in ${book.worksheets.map((w) => w.name).join(', ')}`);
      return sheet.actualRowCount - 1;
    };
    expect(rowsOf('discrepanc')).toBe(8_000);
    expect(rowsOf('unmatched')).toBe(4_000);

    // the job view: the summary, and a download of the workbook for its owner only
    const view = await server.call('GET', `/api/automation/jobs/${job.id}`, { token: user.access });
    const step = view.body.steps[1];
    expect(step.output_details[0].title).toBe('Result kept as a file');
    expect(step.output_details[0].items.slice(0, 1)).toEqual([
      { label: 'Result', value: `reconciliation-invoices.xlsx (${out.result_file.size.toLocaleString('en-GB')} bytes)` },
    ]);
    expect(step.output_details[0].items).toEqual(
      expect.arrayContaining([
        { label: 'Discrepancy count', value: '8000' },
        { label: 'Unmatched count', value: '4000' },
        { label: 'Config', value: 'detected' },
      ]),
    );
    expect(step.output_summary).toMatch(/^Result kept as a file: Result reconciliation-invoices\.xlsx/);
    const link = await server.call('GET', `/api/automation/jobs/${job.id}/files/link?bucket=automation&key=${encodeURIComponent(out.result_file.key)}`, {
      token: user.access,
    });
    expect(link.status).toBe(200);
    expect(link.body.name).toBe('reconciliation-invoices.xlsx');
    const download = await server.app.inject({ method: 'GET', url: link.body.url });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(out.result_file.size);
    const other = await createUser(server);
    expect(
      (
        await server.call('GET', `/api/automation/jobs/${job.id}/files/link?bucket=automation&key=${encodeURIComponent(out.result_file.key)}`, {
          token: other.access,
        })
      ).status,
    ).toBe(404);
    const unnamed = await server.call('GET', `/api/automation/jobs/${job.id}/files/link?bucket=automation&key=not-this-jobs`, { token: user.access });
    expect([unnamed.status, unnamed.body.message]).toEqual([404, 'File not found in this job.']);
  });
});
