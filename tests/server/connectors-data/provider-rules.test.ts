jest.mock('oauth4webapi', () => jest.requireActual('../connections/native-oauth4webapi').loadOAuth4WebApi());
import type { TestServer, TestUser } from '../../support/server';
import { chooseSheet, dataServer, recordOf, stepContext, stepKind, userSheet, type GoogleSandbox, type Rec } from './support';

jest.setTimeout(60_000);

const ACCOUNT = 'rules@example.com';

/** An extraction step's output for one document (what the invoice reader passes on). */
function extracted(name: string, fields: Record<string, string | number | null>, lineItems: Array<Record<string, unknown>> = [], warnings: string[] = []) {
  const all = {
    invoice_number: null,
    invoice_date: null,
    due_date: null,
    vendor_name: null,
    vendor_address: null,
    customer_name: null,
    customer_address: null,
    po_number: null,
    subtotal: null,
    tax: null,
    total: null,
    currency: null,
    payment_terms: null,
    ...fields,
  };
  const confidence = Object.fromEntries(
    Object.entries(all)
      .filter(([, v]) => v !== null)
      .map(([k]) => [k, 0.95]),
  );
  return { name, fields: all, confidence, lineItems: lineItems.map((l) => ({ confidence: 1, ...l })), warnings };
}
const base = { invoice_number: 'INV-9', invoice_date: '2026-01-05', due_date: '2026-02-04', vendor_name: 'Summit Point Ltd', currency: 'GBP' };

describe('what the steps refuse, and what they write with a warning', () => {
  let server: TestServer;
  let user: TestUser;
  let sandbox: () => GoogleSandbox;
  let xeroRec: Rec;
  let seq = 0;

  const bills = () => sandbox().state.account(ACCOUNT).invoices;
  const draft = (input: unknown) =>
    stepKind(server, 'xero:create_draft_bill').run(
      input,
      stepContext(server, user, xeroRec, { jobId: `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}` }),
    );

  beforeAll(async () => {
    ({ server, user, sandbox } = await dataServer(ACCOUNT));
    xeroRec = await recordOf(server, user, 9);
  });
  afterAll(() => server.close());

  it('refuses a bill whose subtotal and tax do not make its total, and writes nothing', async () => {
    const n = bills().length;
    await expect(draft(extracted('odd.pdf', { ...base, subtotal: 100, tax: 20, total: 130 }))).rejects.toThrow(
      'No bill was drafted for "odd.pdf": its subtotal 100.00 plus tax 20.00 is 120.00, not its total 130.00.',
    );
    await expect(draft(extracted('nameless.pdf', { ...base, vendor_name: null, subtotal: 100, tax: 20, total: 120 }))).rejects.toThrow(
      /^No bill was drafted for "nameless.pdf": the supplier's name was not found/,
    );
    expect(bills()).toHaveLength(n);
  });

  it('no line items and no tax read: one line for the subtotal with the tax on it, and the derivation said', async () => {
    const out: any = await draft(extracted('short.pdf', { ...base, subtotal: 100, total: 120 }));
    const bill = bills().find((b) => b.InvoiceID === out.bills[0].InvoiceID)!;
    expect(bill).toMatchObject({ LineAmountTypes: 'Exclusive', SubTotal: 100, TotalTax: 20, Total: 120, CurrencyCode: 'GBP', InvoiceNumber: 'INV-9' });
    expect(bill.LineItems.map(({ LineItemID: _, ...l }) => l)).toEqual([
      { Description: 'Invoice INV-9', Quantity: 1, UnitAmount: 100, LineAmount: 100, TaxType: 'INPUT2', TaxAmount: 20 },
    ]);
    expect(out.bills[0].warnings).toEqual(['Not found on the invoice: tax.', 'The tax was taken as the total minus the subtotal: 20.00.']);
  });

  it('line items that do not add up are not written as they are: one line for the subtotal, and a warning', async () => {
    const out: any = await draft(
      extracted('lines.pdf', { ...base, subtotal: 300, tax: 60, total: 360 }, [{ description: 'Widgets', quantity: 2, unit_price: 100, amount: 200 }]),
    );
    const bill = bills().find((b) => b.InvoiceID === out.bills[0].InvoiceID)!;
    expect(bill).toMatchObject({ SubTotal: 300, TotalTax: 60, Total: 360 });
    expect(bill.LineItems.map((l) => [l.Description, l.Quantity, l.UnitAmount, l.TaxAmount])).toEqual([['Invoice INV-9', 1, 300, 60]]);
    expect(out.warnings).toEqual([
      'The 1 line items read add up to 200.00, which is neither the subtotal 300.00 nor the total 360.00: the bill has one line for the subtotal; add the lines in Xero from the invoice.',
    ]);
  });

  it('a missing currency and due date, and a tax rate the organisation lacks: written, each said', async () => {
    const out: any = await draft(extracted('sparse.pdf', { ...base, currency: null, due_date: null, subtotal: 200, tax: 35, total: 235 }));
    const bill = bills().find((b) => b.InvoiceID === out.bills[0].InvoiceID)!;
    expect(bill).toMatchObject({ SubTotal: 200, TotalTax: 35, Total: 235, CurrencyCode: 'GBP' });
    expect(bill.DueDate).toBeUndefined();
    expect(bill.LineItems[0]).toMatchObject({ TaxAmount: 35, TaxType: 'INPUT2' }); // the organisation's default, as Xero fills it in
    expect(out.warnings).toEqual([
      'Not found on the invoice: due date, currency.',
      "The tax is 17.5% of the subtotal, which is none of your Xero organisation's purchase tax rates: the lines carry the invoice's tax amounts under Xero's default tax rate; check the tax rate in Xero.",
      "The bill is in your organisation's base currency, as the invoice's currency was not found: check it.",
    ]);
  });

  it('of two documents, the good one is written and the step fails naming the other', async () => {
    const good = extracted('good.pdf', { ...base, invoice_number: 'INV-GOOD', subtotal: 50, tax: 10, total: 60 });
    const bad = extracted('bad.pdf', { ...base, invoice_number: 'INV-BAD', subtotal: 50, tax: 10, total: null });
    await expect(draft({ ...good, count: 2, documents: [good, bad] })).rejects.toThrow(
      'No bill was drafted for "bad.pdf": no total was found on the invoice. Drafted: "good.pdf" as INV-GOOD (60.00 GBP).',
    );
    expect(bills().filter((b) => b.InvoiceNumber === 'INV-GOOD')).toHaveLength(1);
    expect(bills().filter((b) => b.InvoiceNumber === 'INV-BAD')).toHaveLength(0);
  });

  it('a field the reader missed is an empty cell and a warning in the Sheet, never a guess', async () => {
    const sheetId = userSheet(sandbox(), ACCOUNT, 'Sparse');
    const rec = await recordOf(server, user, 8);
    await chooseSheet(server, user, rec.recipe_id, sheetId);
    const doc = extracted('sparse.pdf', { ...base, due_date: null, total: 99.5 }, [], ['The total was read from the last amount on the page.']);
    const out: any = await stepKind(server, 'google_sheets:append_row').run(
      doc,
      stepContext(server, user, rec, { jobId: '00000000-0000-4000-8000-0000000000ff' }),
    );
    const warnings = ['The total was read from the last amount on the page.', 'Not found on the invoice: due date, subtotal, tax.'];
    expect(out.warnings).toEqual(warnings);
    const sheet = sandbox()
      .state.account(ACCOUNT)
      .spreadsheets.find((s) => s.spreadsheetId === sheetId)!;
    expect(sheet.rows[1]).toEqual([
      'sparse.pdf',
      'INV-9',
      '2026-01-05',
      '',
      'Summit Point Ltd',
      '',
      '',
      '',
      '',
      '',
      'GBP',
      '',
      '',
      '99.5',
      '',
      warnings.join('\n'),
    ]);
  });
});

describe('the sandbox providers answer as the real APIs do', () => {
  let server: TestServer;
  let sandbox: () => GoogleSandbox;
  const tokenOf = (provider: 'google' | 'xero') =>
    Object.entries(sandbox().state.read().access).find(([, t]) => t.provider === provider && t.account === ACCOUNT && (t.expiresAt ?? 0) > Date.now())![0];
  const api = (path: string, provider: 'google' | 'xero', init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${sandbox().url}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${tokenOf(provider)}`, 'content-type': 'application/json', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));

  beforeAll(async () => {
    ({ server, sandbox } = await dataServer(ACCOUNT));
  });
  afterAll(() => server.close());

  it("Xero Invoices: line amounts, tax from the TaxType rate per line (or as given), totals by LineAmountTypes; errors in Xero's shape", async () => {
    const tenant = (await api('/xero/connections', 'xero')).body[0].tenantId;
    const contact = (
      await api('/xero/api.xro/2.0/Contacts', 'xero', { method: 'POST', headers: { 'xero-tenant-id': tenant }, body: { Contacts: [{ Name: 'Rules Ltd' }] } })
    ).body.Contacts[0];
    const post = (inv: Record<string, unknown>, q = '') =>
      api(`/xero/api.xro/2.0/Invoices${q}`, 'xero', {
        method: 'POST',
        headers: { 'xero-tenant-id': tenant },
        body: { Invoices: [{ Type: 'ACCPAY', Contact: { ContactID: contact.ContactID }, ...inv }] },
      });
    const lines = [
      { Description: 'A', Quantity: 3, UnitAmount: 33.33, TaxType: 'INPUT2' },
      { Description: 'B', Quantity: 1, UnitAmount: 0.07, TaxType: 'INPUT2' },
    ];

    const ex = (await post({ LineItems: lines })).body.Invoices[0];
    expect(ex).toMatchObject({ LineAmountTypes: 'Exclusive', Status: 'DRAFT', CurrencyCode: 'GBP', SubTotal: 100.06, TotalTax: 20.01, Total: 120.07 });
    expect(ex.LineItems.map((l: any) => [l.LineAmount, l.TaxAmount])).toEqual([
      [99.99, 20],
      [0.07, 0.01],
    ]);
    const inc = (await post({ LineAmountTypes: 'Inclusive', LineItems: [{ Description: 'C', Quantity: 1, UnitAmount: 120, TaxType: 'INPUT2' }] })).body
      .Invoices[0];
    expect(inc).toMatchObject({ SubTotal: 100, TotalTax: 20, Total: 120 });
    const none = (await post({ LineAmountTypes: 'NoTax', Date: '2026-01-05', LineItems: [{ Description: 'D', Quantity: 2, UnitAmount: 10, TaxAmount: 4 }] }))
      .body.Invoices[0];
    expect(none).toMatchObject({ SubTotal: 20, TotalTax: 0, Total: 20, Date: `/Date(${Date.UTC(2026, 0, 5)}+0000)/`, DateString: '2026-01-05T00:00:00' });
    expect(none.LineItems[0]).toMatchObject({ TaxType: 'NONE', TaxAmount: 0 });
    const given = (await post({ LineItems: [{ Description: 'E', Quantity: 1, UnitAmount: 100, TaxType: 'INPUT2', TaxAmount: 19.5 }] })).body.Invoices[0];
    expect(given).toMatchObject({ TotalTax: 19.5, Total: 119.5 });
    expect((await post({ LineItems: [{ Description: 'F', Quantity: 1, UnitAmount: 1.23456 }] })).body.Invoices[0].LineItems[0].UnitAmount).toBe(1.23);
    expect((await post({ LineItems: [{ Description: 'F', Quantity: 1, UnitAmount: 1.23456 }] }, '?unitdp=4')).body.Invoices[0].LineItems[0].UnitAmount).toBe(
      1.2346,
    );

    const bad = await post({ LineItems: [{ Description: 'G', Quantity: 2, UnitAmount: 10, LineAmount: 25, TaxType: 'OUTPUT2' }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ErrorNumber: 10, Type: 'ValidationException', Message: 'A validation exception occurred' });
    expect(bad.body.Elements[0].ValidationErrors).toEqual([
      { Message: 'Line 1: the line total 25.00 does not match the expected line total 20.00.' },
      { Message: "Line 1: the TaxType code 'OUTPUT2' does not exist or cannot be used with this type of transaction." },
    ]);
    const rates = (await api('/xero/api.xro/2.0/TaxRates', 'xero', { headers: { 'xero-tenant-id': tenant } })).body.TaxRates;
    expect(rates.find((r: any) => r.TaxType === 'INPUT2')).toMatchObject({ EffectiveRate: 20, CanApplyToExpenses: true, Status: 'ACTIVE' });
  });

  it('Sheets values: get a range, update, append after the table with RAW or USER_ENTERED, and the missing valueInputOption refused', async () => {
    const id = userSheet(sandbox(), ACCOUNT, 'Values', [
      ['a', 'b', 'c'],
      ['1', '', '3'],
    ]);
    const values = `/google/v4/spreadsheets/${id}/values`;
    expect((await api(`${values}/B1:C2`, 'google')).body).toEqual({
      range: 'Sheet1!B1:C2',
      majorDimension: 'ROWS',
      values: [
        ['b', 'c'],
        ['', '3'],
      ],
    });
    expect((await api(`${values}/1:1`, 'google')).body).toMatchObject({ range: 'Sheet1!A1:Z1', values: [['a', 'b', 'c']] });
    const missing = await api(`${values}/A1:append`, 'google', { method: 'POST', body: { values: [['x']] } });
    expect(missing).toEqual({
      status: 400,
      body: { error: { code: 400, message: "'valueInputOption' is required but not specified", status: 'INVALID_ARGUMENT' } },
    });
    const appended = await api(`${values}/A1:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`, 'google', {
      method: 'POST',
      body: { values: [['=1+1', 2, true]] },
    });
    expect(appended.body).toEqual({
      spreadsheetId: id,
      tableRange: 'Sheet1!A1:C2',
      updates: { spreadsheetId: id, updatedRange: 'Sheet1!A3:C3', updatedRows: 1, updatedColumns: 3, updatedCells: 3 },
    });
    const updated = await api(`${values}/D1?valueInputOption=RAW`, 'google', { method: 'PUT', body: { values: [['d', 'e']] } });
    expect(updated.body).toEqual({ spreadsheetId: id, updatedRange: 'Sheet1!D1:E1', updatedRows: 1, updatedColumns: 2, updatedCells: 2 });
    const sheet = sandbox()
      .state.account(ACCOUNT)
      .spreadsheets.find((s) => s.spreadsheetId === id)!;
    expect(sheet.rows).toEqual([
      ['a', 'b', 'c', 'd', 'e'],
      ['1', '', '3'],
      ['=1+1', '2', 'TRUE'],
    ]);
    expect(sheet.kinds![2]).toEqual(['s', 'n', 'b']);
    expect((await api(`${values}/A3:C3?valueRenderOption=UNFORMATTED_VALUE`, 'google')).body.values).toEqual([['=1+1', 2, true]]);
    expect((await api(`${values}/Other!A1`, 'google')).status).toBe(400);
  });
});
