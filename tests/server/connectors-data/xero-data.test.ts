jest.mock('oauth4webapi', () => jest.requireActual('../connections/native-oauth4webapi').loadOAuth4WebApi());
import { readFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { InboundMail } from '../../../src/server/automation';
import { classic, type Layout } from '../../support/invoices/layouts';
import type { TestServer, TestUser } from '../../support/server';
import type { SandboxInvoice } from '../../../plugins/connectors/sandbox/sandbox-state';
import {
  dataServer,
  EUR_MULTI_LINE,
  fileBody,
  GBP_EXCLUSIVE,
  invoiceData,
  invoicePdf,
  line,
  runThroughWebhook,
  started,
  stepContext,
  stepKind,
  stepOutput,
  waitForJob,
  type GoogleSandbox,
  type Rec,
} from './support';

jest.setTimeout(120_000);

const ACCOUNT = 'xero-owner@example.com';

const exclusive = GBP_EXCLUSIVE;
const multiLine = EUR_MULTI_LINE;
/** Tax-inclusive lines: they add up to the total 300.00, of which 50.00 is VAT. */
const inclusive = invoiceData({
  invoiceNumber: 'R-3318',
  invoiceDate: '2026-02-10',
  dueDate: '2026-02-24',
  vendorName: 'Oak Studio Ltd',
  poNumber: undefined,
  paymentTerms: 'Net 14',
  lines: [line('Office chairs', 2, 120), line('Desk lamp', 1, 60)],
  subtotal: 250,
  tax: 50,
  total: 300,
  taxRate: 0.2,
});
/** The classic layout without its total line (label and amount). */
const withoutTotal: Layout = (p, inv, f) => {
  const total = f.money(inv.total, true);
  classic({ text: (x, y, t, o) => (t === 'Total Due' || t === total ? undefined : p.text(x, y, t, o)), rule: p.rule }, inv, f);
};

describe('Xero draft bills: every field of the invoice, totals to the cent', () => {
  let server: TestServer;
  let user: TestUser;
  let sandbox: () => GoogleSandbox;
  let rec: Rec;

  const billsOf = () => sandbox().state.account(ACCOUNT).invoices;
  const billById = (id: string) => billsOf().find((b) => b.InvoiceID === id)!;
  const lineOf = (b: SandboxInvoice) => b.LineItems.map(({ LineItemID, ...rest }) => (expect(LineItemID).toMatch(/^line_/), rest));

  async function billFor(name: string, pdf: Uint8Array) {
    const run = await runThroughWebhook(server, user, rec, fileBody(name, pdf), 30_000);
    expect(run.job.error).toBeNull();
    const out = await stepOutput(server, run.job.id, 2);
    expect(out.bills).toHaveLength(1);
    return { out, bill: billById(out.bills[0].InvoiceID), jobId: run.job.id };
  }

  /** Mails the recipe's inbound address (a real SMTP exchange) and waits for the job the mail started to end. */
  async function mailedJob(mail: { from: string; subject: string; text: string; attachments: { filename: string; content: Buffer; contentType: string }[] }) {
    const inbound = server.container.get(InboundMail);
    const port = await inbound.start({ port: 0, host: '127.0.0.1' });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    try {
      const address = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}`, { token: user.access })).body.recipe.inbound_email;
      const before = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs`, { token: user.access })).body.jobs.length;
      await transport.sendMail({ ...mail, to: address });
      let jobs: any[] = [];
      for (const deadline = Date.now() + 15_000; jobs.length <= before && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        jobs = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs`, { token: user.access })).body.jobs;
      }
      return (await waitForJob(server, user, jobs[0].id, ['succeeded', 'failed'], 40_000)).job;
    } finally {
      transport.close();
      await inbound.stop();
    }
  }

  beforeAll(async () => {
    ({ server, user, sandbox } = await dataServer(ACCOUNT));
    rec = await started(server, user, 9);
  });
  afterAll(() => server.close());

  it('GBP 1,700 + 340 VAT: a bill of 2,040 with both lines, their quantities and the VAT on each', async () => {
    const { out, bill } = await billFor('invoice-1005.pdf', await invoicePdf(exclusive));
    expect(bill).toMatchObject({
      Type: 'ACCPAY',
      Status: 'DRAFT',
      InvoiceNumber: 'INV-1005',
      Date: '2026-03-02',
      DueDate: '2026-04-01',
      CurrencyCode: 'GBP',
      LineAmountTypes: 'Exclusive',
      SubTotal: 1700,
      TotalTax: 340,
      Total: 2040,
    });
    expect(bill.Contact.Name).toBe('Granite Works Ltd');
    expect(bill.Reference).toBeUndefined();
    expect(lineOf(bill)).toEqual([
      { Description: 'Consulting services', Quantity: 10, UnitAmount: 150, LineAmount: 1500, TaxType: 'INPUT2', TaxAmount: 300 },
      { Description: 'Design workshop', Quantity: 1, UnitAmount: 200, LineAmount: 200, TaxType: 'INPUT2', TaxAmount: 40 },
    ]);
    expect(out.bills[0]).toEqual({
      file: 'invoice-1005.pdf',
      InvoiceID: bill.InvoiceID,
      InvoiceNumber: 'INV-1005',
      Contact: 'Granite Works Ltd',
      Status: 'DRAFT',
      CurrencyCode: 'GBP',
      SubTotal: 1700,
      TotalTax: 340,
      Total: 2040,
      warnings: expect.any(Array),
    });
    expect(out.warnings).toEqual(out.bills[0].warnings);
  });

  it('a tax-inclusive invoice: lines as printed (tax included), SubTotal 250, TotalTax 50, Total 300', async () => {
    const { bill } = await billFor('receipt-3318.pdf', await invoicePdf(inclusive));
    expect(bill).toMatchObject({
      InvoiceNumber: 'R-3318',
      Date: '2026-02-10',
      DueDate: '2026-02-24',
      CurrencyCode: 'GBP',
      LineAmountTypes: 'Inclusive',
      SubTotal: 250,
      TotalTax: 50,
      Total: 300,
    });
    expect(bill.Contact.Name).toBe('Oak Studio Ltd');
    expect(lineOf(bill)).toEqual([
      { Description: 'Office chairs', Quantity: 2, UnitAmount: 120, LineAmount: 240, TaxType: 'INPUT2', TaxAmount: 40 },
      { Description: 'Desk lamp', Quantity: 1, UnitAmount: 60, LineAmount: 60, TaxType: 'INPUT2', TaxAmount: 10 },
    ]);
  });

  it("several lines with quantities: the invoice's tax to the cent, though Xero's per-line rounding would give a cent more", async () => {
    const { bill } = await billFor('f-2207.pdf', await invoicePdf(multiLine));
    expect(bill).toMatchObject({ InvoiceNumber: 'F-2207', CurrencyCode: 'EUR', LineAmountTypes: 'Exclusive', SubTotal: 237.24, TotalTax: 11.86, Total: 249.1 });
    expect(lineOf(bill)).toEqual([
      { Description: 'Support hours', Quantity: 3, UnitAmount: 33.33, LineAmount: 99.99, TaxType: 'RRINPUT', TaxAmount: 5 },
      { Description: 'Training session', Quantity: 7, UnitAmount: 12.5, LineAmount: 87.5, TaxType: 'RRINPUT', TaxAmount: 4.37 },
      { Description: 'USB-C cable 2m', Quantity: 25, UnitAmount: 1.99, LineAmount: 49.75, TaxType: 'RRINPUT', TaxAmount: 2.49 },
    ]);
  });

  it('a Belgian e-fff UBL invoice e-mailed as XML gives its bill: every field and line from its data, the tax rate Xero lacks said', async () => {
    // a real e-fff invoice from OCA/edi's tests (tests/fixtures/e-invoices), as a supplier's software sends it
    const xml = readFileSync(path.join(__dirname, '../../fixtures/e-invoices/efff-16117778-ubl-with-pdf.xml'));
    const job = await mailedJob({
      from: 'Exact Online <noreply@exact.example>',
      subject: 'Factuur 16117778',
      text: 'In bijlage uw e-factuur.',
      attachments: [{ filename: 'efff_16117778.xml', content: xml, contentType: 'application/xml' }],
    });
    expect(job.error).toBeNull();
    const out = await stepOutput(server, job.id, 2);
    const warning =
      "The tax is 21% of the subtotal, which is none of your Xero organisation's purchase tax rates: the lines carry the invoice's tax amounts under Xero's default tax rate; check the tax rate in Xero.";
    expect(out.bills).toEqual([
      {
        file: 'efff_16117778.xml',
        InvoiceID: expect.any(String),
        InvoiceNumber: '16117778',
        Contact: 'Exact Belgium II BVBA',
        Status: 'DRAFT',
        CurrencyCode: 'EUR',
        SubTotal: 31,
        TotalTax: 6.51,
        Total: 37.51,
        warnings: [warning],
      },
    ]);
    const bill = billById(out.bills[0].InvoiceID);
    expect(bill).toMatchObject({
      Type: 'ACCPAY',
      Status: 'DRAFT',
      InvoiceNumber: '16117778',
      Contact: { Name: 'Exact Belgium II BVBA' },
      Date: '2016-04-21',
      DueDate: '2016-04-28',
      CurrencyCode: 'EUR',
      LineAmountTypes: 'Exclusive',
      SubTotal: 31,
      TotalTax: 6.51,
      Total: 37.51,
    });
    expect(lineOf(bill)).toEqual([
      { Description: 'Exact voor Boekhouden Standaard', Quantity: 1, UnitAmount: 31, LineAmount: 31, TaxType: 'INPUT2', TaxAmount: 6.51 },
    ]);
  });

  it('an invoice without a total is reported and nothing is written', async () => {
    const before = billsOf().length;
    const run = await runThroughWebhook(
      server,
      user,
      rec,
      fileBody('no-total.pdf', await invoicePdf({ ...exclusive, invoiceNumber: 'INV-0404' }, withoutTotal)),
      30_000,
    );
    expect(run.job.status).toBe('failed');
    expect(run.steps[2]).toMatchObject({ status: 'failed', attempts: 1, error: 'No bill was drafted for "no-total.pdf": no total was found on the invoice.' });
    expect(billsOf()).toHaveLength(before);
  });

  it('an e-mail with two invoice PDFs gives two bills, each once however often the step is tried', async () => {
    const job = await mailedJob({
      from: 'Accounts <ap@supplier.example>',
      subject: 'Two invoices',
      text: 'Both attached.',
      attachments: [
        { filename: 'invoice-1005.pdf', content: Buffer.from(await invoicePdf(exclusive)), contentType: 'application/pdf' },
        { filename: 'f-2207.pdf', content: Buffer.from(await invoicePdf(multiLine)), contentType: 'application/pdf' },
      ],
    });
    expect(job.error).toBeNull();
    const out = await stepOutput(server, job.id, 2);
    expect(out.bills.map((b: any) => [b.file, b.InvoiceNumber, b.CurrencyCode, b.SubTotal, b.TotalTax, b.Total])).toEqual([
      ['invoice-1005.pdf', 'INV-1005', 'GBP', 1700, 340, 2040],
      ['f-2207.pdf', 'F-2207', 'EUR', 237.24, 11.86, 249.1],
    ]);
    const [first, second] = out.bills.map((b: any) => billById(b.InvoiceID));
    expect(first).toMatchObject({ Contact: { Name: 'Granite Works Ltd' }, Date: '2026-03-02', DueDate: '2026-04-01', LineAmountTypes: 'Exclusive' });
    expect(lineOf(first).map((l) => [l.Description, l.Quantity, l.UnitAmount, l.TaxAmount])).toEqual([
      ['Consulting services', 10, 150, 300],
      ['Design workshop', 1, 200, 40],
    ]);
    expect(second).toMatchObject({ Contact: { Name: 'Cedar Labs BV' }, Date: '2026-05-14', DueDate: '2026-06-13', LineAmountTypes: 'Exclusive' });
    expect(lineOf(second).map((l) => [l.Description, l.Quantity, l.UnitAmount, l.TaxAmount])).toEqual([
      ['Support hours', 3, 33.33, 5],
      ['Training session', 7, 12.5, 4.37],
      ['USB-C cable 2m', 25, 1.99, 2.49],
    ]);

    // the step tried again with the same key (a lost answer, a restart): the same two bills, no new ones
    const count = billsOf().length;
    const step = stepKind(server, 'xero:create_draft_bill');
    const again = await step.run(await stepOutput(server, job.id, 1), stepContext(server, user, rec, { jobId: job.id, attempt: 2, source: 'manual_email' }));
    expect(again).toEqual(out);
    expect(billsOf()).toHaveLength(count);
  });
});
