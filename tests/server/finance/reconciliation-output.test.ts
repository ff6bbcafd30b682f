import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import type { TextGenerator, TextTask } from '../../../src/server/ai/text-generation/text-generator';
import { compareFiles, parseReconciliationConfig, ReconciliationConfigError, csvHeaders } from '../../../plugins/invoice-reconciliation/engine/compare';
import { draftEmails, TONES, vendorNotMatchedTask } from '../../../plugins/invoice-reconciliation/engine/emails';
import { comparisonToXlsx, discrepancyTable, tableToCsv } from '../../../plugins/invoice-reconciliation/engine/export';
import { checkInvoices } from '../../../plugins/invoice-reconciliation/engine/invoice-check';
import { reconcile } from '../../../plugins/invoice-reconciliation/engine/matcher';

const templates: TextGenerator = { generate: async (task: TextTask) => ({ text: task.template(), source: 'template' }) };

const PO =
  'PO Number,Vendor,Vendor Email,Description,Qty,Unit Price,Total\nPO-1,Acme Ltd,ar@acme.example,Bolts,10,2.50,25.00\nPO-2,Acme Ltd,,Nuts,4,1.00,4.00\nPO-3,Globex,,Paper,1,5.00,5.00\n';
const INV =
  'Invoice Number,PO Number,Vendor,Description,Qty,Unit Price,Total\nI-1,PO-1,Acme Ltd,Bolts,12,2.50,30.00\nI-2,PO-2,Acme Ltd,Nuts,4,1.00,4.00\nI-3,PO-8,Globex,Toner,1,"1,250.00","1,250.00"\n';

async function sample() {
  return reconcile({ name: 'invoices.csv', data: INV }, { name: 'orders.csv', data: PO });
}

describe('vendor e-mails', () => {
  it('reads like a business e-mail citing the rows, both values and the delta', async () => {
    const result = await sample();
    const [acme] = await draftEmails(
      result,
      { generateForNotMatched: true, generateForMatched: false, generateInternalMemo: false, toneNotMatched: 'formal', toneMatched: 'friendly' },
      templates,
    );
    expect(acme).toMatchObject({ type: 'vendor_not_matched', vendor: 'Acme Ltd', to: 'ar@acme.example', tone: 'formal', source: 'template' });
    expect(acme.subject).toBe('Invoice discrepancies requiring your attention (1 line)');
    expect(acme.body).toBe(
      [
        'Dear Acme Ltd Accounts Receivable Team,',
        '',
        'We have reconciled your recent invoices against our purchase orders and identified the discrepancies set out below. We are unable to process these lines for payment until they are resolved.',
        '',
        '• PO-1 (Bolts): quantity invoiced 12, ordered 10 (+2) [invoice row 2, PO row 2]; total invoiced 30.00, ordered 25.00 (+5.00) [invoice row 2, PO row 2].',
        '',
        'We would be grateful if you could review these items and issue a corrected invoice or credit note, or provide supporting documentation, at your earliest convenience.',
        '',
        'Thank you for your prompt attention to this matter.',
        '',
        'Yours sincerely,\nAccounts Payable',
      ].join('\n'),
    );
  });

  it('cites invoice lines without a purchase order', async () => {
    const result = await sample();
    const emails = await draftEmails(
      result,
      { generateForNotMatched: true, generateForMatched: false, generateInternalMemo: false, toneNotMatched: 'casual', toneMatched: 'casual' },
      templates,
    );
    const globex = emails.find((e) => e.vendor === 'Globex')!;
    expect(globex.body).toContain('• PO-8 (Toner, 1,250.00): we cannot find a purchase order with this number [invoice row 4].');
    expect(globex.to).toBe('Globex');
  });

  it('gives each of the six tones its own wording', async () => {
    const result = await sample();
    const acme = result.metadata.vendors.find((v) => v.vendor === 'Acme Ltd')!;
    const texts = TONES.map((tone) => vendorNotMatchedTask(acme, result.discrepencies, [], tone, { invoice: 'i.csv', purchaseOrder: 'p.csv' }).template());
    expect(new Set(texts.map((t) => t.split('\n')[0])).size).toBe(6); // six subjects
    expect(new Set(texts.map((t) => t.split('\n')[2])).size).toBeGreaterThanOrEqual(5); // greetings
    expect(new Set(texts.map((t) => t.split('\n')[4])).size).toBe(6); // openers
    for (const text of texts) expect(text).toContain('total invoiced 30.00, ordered 25.00 (+5.00)');
    expect(texts[4]).toMatch(/within 10 business days/); // authoritative
    expect(texts[5]).toMatch(/spreadsheet/); // humorous
    expect(texts[1]).toMatch(/We know how much it matters to be paid on time/); // empathetic
  });

  it('hands a model the facts and the tone, and keeps the model subject when it gives one', async () => {
    const result = await sample();
    const seen: TextTask[] = [];
    const model: TextGenerator = {
      generate: async (task) => {
        seen.push(task);
        return { text: 'Subject: From the model\n\nBody text.', source: 'llm' };
      },
    };
    const [email] = await draftEmails(
      result,
      { generateForNotMatched: true, generateForMatched: false, generateInternalMemo: false, toneNotMatched: 'empathetic', toneMatched: 'formal' },
      model,
    );
    expect(email).toMatchObject({ subject: 'From the model', body: 'Body text.', source: 'llm' });
    expect(seen[0].system).toMatch(/empathetic/);
    expect(seen[0].prompt).toContain('quantity invoiced 12, ordered 10 (+2)');
  });

  it('writes confirmations for matched lines and an internal memo when asked', async () => {
    const result = await sample();
    const emails = await draftEmails(
      result,
      { generateForNotMatched: false, generateForMatched: true, generateInternalMemo: true, toneNotMatched: 'formal', toneMatched: 'friendly' },
      templates,
    );
    expect(emails.map((e) => e.type)).toEqual(['vendor_matched', 'internal_memo']);
    expect(emails[0].body).toContain('• PO-2 (Nuts): 4.00 [invoice row 3]');
    const memo = emails[1].body;
    expect(memo).toContain('Matched: 2 (66.7%), of which 1 without discrepancy (33.3%).');
    expect(memo).toContain('Invoice total 1,284.00; purchase-order total 34.00; difference +1,250.00.');
    expect(memo).toContain('Purchase orders not invoiced');
    expect(memo).toMatch(/1\. Hold payment on the 1 line with discrepancies/);
  });
});

describe('config', () => {
  it('reads the Python-style config_json, quotes in values included', () => {
    expect(
      parseReconciliationConfig(
        "{'INVOICE_PRIMARY_KEY': \"Vendor's Ref\", 'PURCHASE_ORDER_PRIMARY_KEY': 'PO Number', 'EMAIL_TONE_OF_VOICE_MATCHED': 'Humorous', 'GENERATE_EMAIL_FOR_MATCHED': True, 'GENERATE_EMAIL_FOR_NOT_MATCHED': 'false', 'combination_id': 10}",
      ),
    ).toEqual({
      INVOICE_PRIMARY_KEY: "Vendor's Ref",
      PURCHASE_ORDER_PRIMARY_KEY: 'PO Number',
      EMAIL_TONE_OF_VOICE_MATCHED: 'humorous',
      GENERATE_EMAIL_FOR_MATCHED: true,
      GENERATE_EMAIL_FOR_NOT_MATCHED: false,
    });
  });

  it('names the field that is wrong', () => {
    expect(() => parseReconciliationConfig("{'EMAIL_TONE_OF_VOICE_MATCHED': 'sarcastic'}")).toThrow(
      new ReconciliationConfigError(
        'EMAIL_TONE_OF_VOICE_MATCHED must be one of formal, empathetic, friendly, casual, authoritative, humorous, not "sarcastic".',
      ),
    );
    expect(() => parseReconciliationConfig("{'GENERATE_EMAIL_FOR_MATCHED': 'yes'}")).toThrow(/GENERATE_EMAIL_FOR_MATCHED must be True or False/);
    expect(() => parseReconciliationConfig("{'INVOICE_PRIMARY_KEY': 'x'")).toThrow(/The saved config could not be read. Not a valid Python literal/);
  });
});

describe('compareFiles', () => {
  it('returns default and custom_config in the spec shape', async () => {
    const config =
      "{'INVOICE_PRIMARY_KEY': 'Invoice Number', 'PURCHASE_ORDER_PRIMARY_KEY': 'PO Number', 'EMAIL_TONE_OF_VOICE_NOT_MATCHED': 'friendly', 'GENERATE_EMAIL_FOR_NOT_MATCHED': True, 'GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED': False}";
    const result = await compareFiles({
      invoiceCsv: { name: 'invoices.csv', data: Buffer.from(INV) },
      poCsv: { name: 'orders.csv', data: Buffer.from(PO) },
      config,
      textGenerator: templates,
    });
    for (const side of [result.default, result.custom_config])
      expect(Object.keys(side).sort()).toEqual(['discrepencies', 'emails', 'metadata', 'unmatched_records']);
    expect(result.default.metadata).toMatchObject({ invoice_key: 'PO Number', matched_rows: 2, config_source: 'detected' });
    expect(result.default.emails.map((e) => e.type)).toEqual(['vendor_not_matched', 'vendor_not_matched', 'internal_memo']);
    // Custom keys: invoice numbers never equal PO numbers, so nothing matches.
    expect(result.custom_config.metadata).toMatchObject({
      invoice_key: 'Invoice Number',
      matched_rows: 0,
      unmatched_invoice_rows: 3,
      config_source: 'saved config',
    });
    expect(result.custom_config.emails.every((e) => e.type === 'vendor_not_matched' && e.tone === 'friendly')).toBe(true);
  });

  it('checks the invoice file alone when there is no purchase-order file', async () => {
    const invoices = 'Invoice Number,Vendor,Qty,Unit Price,Total\nI-1,Acme,2,10.00,20.00\nI-2,Acme,3,10.00,31.00\ni-1 ,Acme,2,10.00,20.00\n,Acme,1,1,1\n';
    const result = await compareFiles({ invoiceCsv: { name: 'invoices.csv', data: invoices }, textGenerator: templates });
    expect(result.default.metadata).toMatchObject({
      mode: 'invoice-only',
      invoice_key: 'Invoice Number',
      invoice_rows: 4,
      duplicate_invoice_keys: 1,
      purchase_order_file: null,
    });
    expect(result.default.discrepencies.map((d) => [d.kind, d.key, d.delta])).toEqual([
      ['line_total', 'I-2', 1],
      ['duplicate_invoice_key', 'i-1', null],
    ]);
    expect(result.default.unmatched_records).toHaveLength(1);
    const email = result.default.emails.find((e) => e.type === 'vendor_not_matched')!;
    expect(email.body).toContain('checked your recent invoices line by line');
    expect(email.body).toContain('line total stated as 31.00 but the quantity × unit price comes to 30.00 (+1.00)');
    expect(result.custom_config.discrepencies).toBe(result.default.discrepencies); // no saved config: computed once
  });

  it('lists the header choices of an upload', async () => {
    expect(await csvHeaders({ name: 'x.csv', data: Buffer.from('\ufeffPO Number;Qty\n1;2\n') })).toEqual(['PO Number', 'Qty']);
  });

  it('rejects a garbage number with the file, row and column', async () => {
    await expect(checkInvoices({ name: 'inv.csv', data: 'Invoice No,Total\nA,12x\n' })).rejects.toThrow(
      'The file "inv.csv", row 2, column "Total": "12x" is not a number.',
    );
  });
});

describe('export', () => {
  it('writes CSV tables that round-trip and cannot inject formulas', async () => {
    const result = await sample();
    result.discrepencies[0].description = '=HYPERLINK("http://evil")';
    const csv = tableToCsv(discrepancyTable(result));
    const parsed = Papa.parse<string[]>(csv).data;
    expect(parsed[0]).toEqual([
      'Kind',
      'Key',
      'Field',
      'Vendor',
      'Description',
      'Invoice row',
      'PO row',
      'Invoice value',
      'PO value',
      'Expected value',
      'Delta',
      'Message',
    ]);
    expect(parsed[1].slice(0, 11)).toEqual(['quantity', 'PO-1', 'quantity', 'Acme Ltd', '\'=HYPERLINK("http://evil")', '2', '2', '12', '10', '', '2']);
  });

  it('writes an XLSX workbook with typed cells', async () => {
    const comparison = await compareFiles({
      invoiceCsv: { name: 'invoices.csv', data: INV },
      poCsv: { name: 'orders.csv', data: PO },
      textGenerator: templates,
    });
    const buffer = await comparisonToXlsx(comparison);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual([
      'Default summary',
      'Default discrepancies',
      'Default unmatched',
      'Default e-mails',
      'Custom summary',
      'Custom discrepancies',
      'Custom unmatched',
      'Custom e-mails',
    ]);
    const sheet = workbook.getWorksheet('Default discrepancies')!;
    expect(sheet.getRow(2).getCell(8).value).toBe(12);
    expect(sheet.getRow(2).getCell(11).value).toBe(2);
    expect(workbook.getWorksheet('Default unmatched')!.rowCount).toBe(3);
  });
});
