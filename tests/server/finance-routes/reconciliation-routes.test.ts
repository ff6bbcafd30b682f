import reconciliation from '../../../plugins/invoice-reconciliation/server';
import { parsePythonLiteral } from '../../../src/core/python-literal';
import { startWithTwoUsers, type TestServer, type TestUser } from '../../support/server';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const CONFIG = '/api/platform/invoiceReconciliationConfig';
const COMPARE = '/api/platform/invoice_reconciliation/comparison';
const EXPORT = '/api/plugins/invoice-reconciliation/export';

const PO =
  'PO Number,Vendor,Vendor Email,Description,Qty,Unit Price,Total\nPO-1,Acme Ltd,ar@acme.example,Bolts,10,2.50,25.00\nPO-2,Acme Ltd,,Nuts,4,1.00,4.00\nPO-3,Globex,,Paper,1,5.00,5.00\n';
const INV =
  'Invoice Number,PO Number,Vendor,Description,Qty,Unit Price,Total\nI-1,PO-1,Acme Ltd,Bolts,12,2.50,30.00\nI-2,PO-2,Acme Ltd,Nuts,4,1.00,4.00\nI-3,PO-8,Globex,Toner,1,"1,250.00","1,250.00"\n';
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

const SETTINGS =
  "{'INVOICE_PRIMARY_KEY': 'PO Number', 'PURCHASE_ORDER_PRIMARY_KEY': 'PO Number', 'EMAIL_TONE_OF_VOICE_MATCHED': 'friendly', 'EMAIL_TONE_OF_VOICE_NOT_MATCHED': 'humorous', 'GENERATE_EMAIL_FOR_NOT_MATCHED': True, 'GENERATE_EMAIL_FOR_MATCHED': True, 'GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED': False}";

describe('invoice reconciliation routes', () => {
  let server: TestServer, ann: TestUser, bob: TestUser;
  beforeAll(
    async () =>
      ({
        server,
        users: [ann, bob],
      } = await startWithTwoUsers({ plugins: [connectorDeclarations, reconciliation], env: { MAX_UPLOAD_MB: '1' } })),
  );
  afterAll(() => server?.close());

  describe('config', () => {
    let id: number;

    it('answers id null before anything is saved', async () => {
      const res = await server.call('GET', `${CONFIG}?combination_id=10`, { token: ann.access });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', id: null, combination_id: 10, config_json: null });
    });

    it('needs a signed-in user', async () => {
      expect((await server.call('GET', CONFIG)).status).toBe(401);
      expect((await server.call('POST', CONFIG, { body: { combination_id: 10, config_json: SETTINGS } })).status).toBe(401);
    });

    it('creates from a Python-style string and answers in the same shape', async () => {
      const res = await server.call('POST', CONFIG, { token: ann.access, body: { combination_id: 10, config_json: SETTINGS } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'success', combination_id: 10 });
      id = res.body.id;
      expect(typeof res.body.config_json).toBe('string');
      expect(res.body.config_json).toContain("'GENERATE_EMAIL_FOR_MATCHED': True");
      expect(parsePythonLiteral(res.body.config_json)).toMatchObject({
        EMAIL_TONE_OF_VOICE_NOT_MATCHED: 'humorous',
        GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED: false,
      });
    });

    it('refuses a second create and points to the update', async () => {
      const res = await server.call('POST', `${CONFIG}/`, { token: ann.access, body: { combination_id: 10, config_json: SETTINGS } });
      expect(res.status).toBe(409);
      expect(res.body.message).toContain(`PUT ${CONFIG}/${id}/`);
    });

    it('reads it back by id and by combination', async () => {
      const byId = await server.call('GET', `${CONFIG}/${id}/`, { token: ann.access });
      expect(byId.status).toBe(200);
      expect(byId.body.id).toBe(id);
      const mine = await server.call('GET', `${CONFIG}?combination_id=10`, { token: ann.access });
      expect(mine.body.id).toBe(id);
    });

    it('updates, accepting JSON too', async () => {
      const res = await server.call('PUT', `${CONFIG}/${id}/`, {
        token: ann.access,
        body: {
          combination_id: 10,
          config_json: JSON.stringify({
            EMAIL_TONE_OF_VOICE_MATCHED: 'casual',
            EMAIL_TONE_OF_VOICE_NOT_MATCHED: 'formal',
            GENERATE_EMAIL_FOR_NOT_MATCHED: true,
            GENERATE_EMAIL_FOR_MATCHED: true,
            GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED: true,
          }),
        },
      });
      expect(res.status).toBe(200);
      expect(parsePythonLiteral(res.body.config_json)).toEqual({
        EMAIL_TONE_OF_VOICE_MATCHED: 'casual',
        EMAIL_TONE_OF_VOICE_NOT_MATCHED: 'formal',
        GENERATE_EMAIL_FOR_NOT_MATCHED: true,
        GENERATE_EMAIL_FOR_MATCHED: true,
        GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED: true,
      });
    });

    it("refuses another user's config as not found", async () => {
      expect((await server.call('GET', `${CONFIG}/${id}/`, { token: bob.access })).status).toBe(404);
      const put = await server.call('PUT', `${CONFIG}/${id}/`, { token: bob.access, body: { combination_id: 10, config_json: SETTINGS } });
      expect(put.status).toBe(404);
      expect((await server.call('GET', `${CONFIG}/${id}/`, { token: ann.access })).body.config_json).toContain("'casual'");
    });

    it.each([
      ["{'EMAIL_TONE_OF_VOICE_MATCHED': 'formal'", /config_json could not be read: Not a valid Python literal/],
      ["['formal']", /must be a dict of settings/],
      [SETTINGS.replace("'humorous'", "'sarcastic'"), /tone of voice for not-matched e-mails: formal, empathetic/],
      [SETTINGS.replace("'GENERATE_EMAIL_FOR_MATCHED': True", "'GENERATE_EMAIL_FOR_MATCHED': 'yes'"), /GENERATE_EMAIL_FOR_MATCHED must be True or False/],
      [SETTINGS.replace('}', ", 'COLOUR': 'red'}"), /does not know: COLOUR/],
    ])('refuses config_json %s with a readable message', async (configJson, message) => {
      const res = await server.call('POST', CONFIG, { token: bob.access, body: { combination_id: 10, config_json: configJson } });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    });

    it('refuses a config of another combination', async () => {
      const res = await server.call('POST', CONFIG, { token: bob.access, body: { combination_id: 11, config_json: SETTINGS } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('This config belongs to combination 10, not 11.');
    });
  });

  describe('comparison', () => {
    it('compares both files: default and custom_config, each with the four parts', async () => {
      const res = await server.call('POST', COMPARE, {
        token: ann.access,
        body: { combination_id: 10, file1_name: 'invoices.csv', file1_binary: b64(INV), file2_name: 'orders.csv', file2_binary: b64(PO) },
      });
      expect(res.status).toBe(200);
      for (const side of ['default', 'custom_config']) {
        expect(Object.keys(res.body[side]).sort()).toEqual(['discrepencies', 'emails', 'metadata', 'unmatched_records']);
        expect(res.body[side].metadata).toMatchObject({
          mode: 'reconciliation',
          invoice_file: 'invoices.csv',
          purchase_order_file: 'orders.csv',
          invoice_rows: 3,
          matched_rows: 2,
        });
      }
      expect(res.body.custom_config.metadata.config_source).toBe('saved config');
      expect(res.body.default.discrepencies.map((d: { kind: string }) => d.kind)).toEqual(expect.arrayContaining(['quantity', 'total']));
      expect(res.body.default.unmatched_records.map((u: { key: string }) => u.key).sort()).toEqual(['PO-3', 'PO-8']);
      // the saved config asks for matched e-mails in a casual tone; the default does not
      expect(res.body.custom_config.emails.find((e: { type: string }) => e.type === 'vendor_matched')).toMatchObject({ tone: 'casual', vendor: 'Acme Ltd' });
      expect(res.body.default.emails.some((e: { type: string }) => e.type === 'vendor_matched')).toBe(false);
    });

    it('checks the invoice file alone when only it is sent', async () => {
      const res = await server.call('POST', COMPARE, { token: bob.access, body: { combination_id: 10, file1_name: 'invoices.csv', file1_binary: b64(INV) } });
      expect(res.status).toBe(200);
      expect(res.body.default.metadata).toMatchObject({ mode: 'invoice-only', purchase_order_file: null, invoice_rows: 3 });
      expect(res.body.custom_config.metadata.config_source).toBe('detected');
    });

    it('names the file, row and problem of a malformed CSV', async () => {
      const bad =
        'Invoice Number,PO Number,Vendor,Description,Qty,Unit Price,Total\nI-1,PO-1,Acme Ltd,Bolts,12,2.50,30.00\nI-2,PO-2,Acme Ltd,Nuts,four,1.00,4.00\n';
      const res = await server.call('POST', COMPARE, {
        token: bob.access,
        body: { combination_id: 10, file1_name: 'bad-invoices.csv', file1_binary: b64(bad), file2_name: 'orders.csv', file2_binary: b64(PO) },
      });
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('error');
      expect(res.body.message).toMatch(/bad-invoices\.csv/);
      expect(res.body.message).toMatch(/row 3/);
      expect(res.body.message).toMatch(/four/);
    });

    it('accepts .csv files only', async () => {
      const res = await server.call('POST', COMPARE, { token: bob.access, body: { combination_id: 10, file1_name: 'invoices.xlsx', file1_binary: b64(INV) } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('The invoice file must be a .csv file; "invoices.xlsx" is not.');
    });

    it('refuses a file over MAX_UPLOAD_MB with 413 naming it', async () => {
      const big = INV + 'I-9,PO-9,Acme Ltd,Filler,1,1.00,1.00\n'.repeat(30_000); // ~1.1 MB
      const res = await server.call('POST', COMPARE, { token: bob.access, body: { combination_id: 10, file1_name: 'huge.csv', file1_binary: b64(big) } });
      expect(res.status).toBe(413);
      expect(res.body.message).toBe('"huge.csv" is too large: the limit is 1 MB per file.');
    });

    it('refuses text that is not base64', async () => {
      const res = await server.call('POST', COMPARE, {
        token: bob.access,
        body: { combination_id: 10, file1_name: 'invoices.csv', file1_binary: 'not base64 at all!' },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('"invoices.csv" was not sent as base64, so it could not be read.');
    });

    it('needs the invoice file', async () => {
      const res = await server.call('POST', COMPARE, { token: bob.access, body: { combination_id: 10, file2_name: 'orders.csv', file2_binary: b64(PO) } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Please upload the invoice file.');
    });
  });

  describe('export', () => {
    it('downloads a side as CSV of one table and as XLSX', async () => {
      const compared = await server.call('POST', COMPARE, {
        token: bob.access,
        body: { combination_id: 10, file1_name: 'invoices.csv', file1_binary: b64(INV), file2_name: 'orders.csv', file2_binary: b64(PO) },
      });
      const csv = await server.call('POST', EXPORT, {
        token: bob.access,
        body: { format: 'csv', table: 'discrepancies', side: 'default', result: compared.body.default },
      });
      expect(csv.status).toBe(200);
      expect(csv.body).toMatchObject({ status: 'success', file_name: 'reconciliation-default-discrepancies.csv', content_type: 'text/csv; charset=utf-8' });
      const text = Buffer.from(csv.body.data, 'base64').toString('utf8');
      expect(text).toMatch(/^\ufeffKind,Key,Field/);
      expect(text).toContain('PO-1');
      const xlsx = await server.call('POST', EXPORT, {
        token: bob.access,
        body: { format: 'xlsx', side: 'custom_config', result: compared.body.custom_config },
      });
      expect(xlsx.status).toBe(200);
      expect(xlsx.body.file_name).toBe('reconciliation-custom-config.xlsx');
      expect(Buffer.from(xlsx.body.data, 'base64').subarray(0, 2).toString()).toBe('PK');
      const noTable = await server.call('POST', EXPORT, { token: bob.access, body: { format: 'csv', side: 'default', result: compared.body.default } });
      expect(noTable.status).toBe(400);
    });
  });
});
