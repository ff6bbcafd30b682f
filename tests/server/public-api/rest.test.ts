import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderInvoicePdf } from '../../support/invoices/render';
import { STATEMENT_CSV } from '../../support/finance/statement';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { C, recordOf, sleep } from '../automation/support';
import { storeFile } from '../extraction-routes/support';
import { apiServer, csv64, userWithKey } from './support';

jest.setTimeout(120_000);

type KeyUser = TestUser & { key: string; keyId: number };

const PO =
  'PO Number,Vendor,Vendor Email,Description,Qty,Unit Price,Total\nPO-1,Acme Ltd,ar@acme.example,Bolts,10,2.50,25.00\nPO-2,Acme Ltd,,Nuts,4,1.00,4.00\n';
const INV =
  'Invoice Number,PO Number,Vendor,Description,Qty,Unit Price,Total\nI-1,PO-1,Acme Ltd,Bolts,12,2.50,30.00\nI-2,PO-2,Acme Ltd,Nuts,4,1.00,4.00\nI-3,PO-8,Globex,Toner,1,5.00,5.00\n';
const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');
const RECON_CONFIG = {
  INVOICE_PRIMARY_KEY: 'PO Number',
  PURCHASE_ORDER_PRIMARY_KEY: 'PO Number',
  EMAIL_TONE_OF_VOICE_MATCHED: 'friendly',
  EMAIL_TONE_OF_VOICE_NOT_MATCHED: 'formal',
  GENERATE_EMAIL_FOR_NOT_MATCHED: true,
  GENERATE_EMAIL_FOR_MATCHED: false,
  GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED: true,
};

describe('public REST API /api/v1 with API keys', () => {
  let server: TestServer;
  let ann: KeyUser;
  let bob: KeyUser;
  const get = (url: string, key?: string) => server.call('GET', url, { token: key });
  const post = (url: string, key: string | undefined, body?: unknown) => server.call('POST', url, { token: key, body });

  beforeAll(async () => {
    server = await apiServer({ env: { API_KEY_RATE_LIMIT: '60' } });
    ann = await userWithKey(server, 'Ann script');
    bob = await userWithKey(server, 'Bob script');
  });
  afterAll(() => server?.close());

  describe('keys', () => {
    it('creates a key shown once, stores only its hash, lists it without the secret and revokes it at once', async () => {
      const user = await createUser(server);
      const made = await post('/api/v1/keys', user.access, { name: '  Nightly export ' });
      expect(made.status).toBe(201);
      expect(made.body).toEqual({
        id: expect.any(Number),
        name: 'Nightly export',
        key: expect.stringMatching(/^fm_[A-Za-z0-9_-]{43}$/),
        created_at: expect.any(String),
      });
      const row = await server.db.selectFrom('api_keys').selectAll().where('id', '=', made.body.id).executeTakeFirstOrThrow();
      expect(row.secret_hash).toBe(createHash('sha256').update(made.body.key).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(made.body.key);

      const list = await get('/api/v1/keys', user.access);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        keys: [{ id: made.body.id, name: 'Nightly export', prefix: made.body.key.slice(0, 7), created_at: made.body.created_at, last_used_at: null }],
      });
      expect(JSON.stringify(list.body)).not.toContain(made.body.key);

      expect((await get('/api/v1/recipes', made.body.key)).status).toBe(200);
      const used = await get('/api/v1/keys', user.access);
      expect(Date.parse(used.body.keys[0].last_used_at)).toBeGreaterThanOrEqual(Date.parse(made.body.created_at));

      // another user cannot revoke it; its owner can, and it stops working at once
      expect(await server.call('DELETE', `/api/v1/keys/${made.body.id}`, { token: bob.access })).toMatchObject({
        status: 404,
        body: { status: 'error', message: 'API key not found.' },
      });
      expect(await server.call('DELETE', `/api/v1/keys/${made.body.id}`, { token: user.access })).toMatchObject({
        status: 200,
        body: { status: 'ok', id: made.body.id },
      });
      expect((await get('/api/v1/keys', user.access)).body).toEqual({ keys: [] });
      const revoked = await get('/api/v1/recipes', made.body.key);
      expect(revoked.status).toBe(401);
      expect(revoked.body.message).toBe('This API key is not valid: it is wrong or has been revoked. Create a new one in My Account → API keys.');
    });

    it("needs the login token (a key cannot make keys, nor open the pages' own routes) and a name", async () => {
      expect((await post('/api/v1/keys', ann.key, { name: 'x' })).status).toBe(401);
      expect((await get('/api/platform/combinations', ann.key)).status).toBe(401);
      expect((await get(`/api/platform/userByWorkatoRecipe/${ann.workatoId}/`, ann.key)).status).toBe(401);
      expect((await post('/api/api/text_processing_json/', ann.key, { text: 'Hello.' })).status).toBe(401);
      expect((await get('/api/v1/keys')).status).toBe(401);
      expect(await post('/api/v1/keys', ann.access, {})).toMatchObject({
        status: 400,
        body: { message: 'Please give the key a name (up to 100 characters), e.g. "Reporting script".' },
      });
      expect(await post('/api/v1/keys', ann.access, { name: '   ' })).toMatchObject({ status: 400 });
    });
  });

  describe('isolation', () => {
    const PATHS: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/combinations'],
      ['GET', '/api/v1/recipes'],
      ['POST', '/api/v1/recipes/1/start'],
      ['POST', '/api/v1/recipes/1/runs', {}],
      ['GET', '/api/v1/jobs/00000000-0000-4000-8000-000000000000'],
      ['POST', '/api/v1/emotions', { text: 'hi' }],
      ['POST', '/api/v1/documents/search', { query: 'invoice' }],
      ['POST', '/api/v1/invoices/extract', { file_name: 'a.pdf', file_base64: 'AAAA' }],
      ['POST', '/api/v1/reconciliations', {}],
      ['POST', '/api/v1/financial-analyses', {}],
      ['POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ];

    it('answers 401 with a JSON message to no key, a wrong key, a login token and a revoked key', async () => {
      const made = await post('/api/v1/keys', ann.access, { name: 'to revoke' });
      await server.call('DELETE', `/api/v1/keys/${made.body.id}`, { token: ann.access });
      for (const [method, url, body] of PATHS) {
        const none = await server.call(method, url, { body });
        expect([url, none.status, none.body.message]).toEqual([
          url,
          401,
          'Send your API key as "Authorization: Bearer fm_…" (create one in My Account → API keys).',
        ]);
        for (const token of [`fm_${'x'.repeat(43)}`, ann.access, made.body.key]) {
          const res = await server.call(method, url, { token, body });
          expect([url, res.status, res.body.status]).toEqual([url, 401, 'error']);
        }
      }
    });

    it("never reaches another user's recipes, jobs or documents (404)", async () => {
      const rec = await recordOf(server, ann, C.pipeline);
      for (const action of ['start', 'stop']) {
        expect(await post(`/api/v1/recipes/${rec.recipe_id}/${action}`, bob.key)).toMatchObject({
          status: 404,
          body: { status: 'error', message: 'Recipe not found.' },
        });
      }
      expect(await post(`/api/v1/recipes/${rec.recipe_id}/runs`, bob.key, { name: 'x' })).toMatchObject({
        status: 404,
        body: { message: 'Recipe not found.' },
      });
      expect((await get('/api/v1/recipes', bob.key)).body.recipes.map((r: { id: number }) => r.id)).not.toContain(rec.recipe_id);

      await post(`/api/v1/recipes/${rec.recipe_id}/start`, ann.key);
      const run = await post(`/api/v1/recipes/${rec.recipe_id}/runs`, ann.key, { name: 'Ada', order: { total: 1 } });
      expect(run.status).toBe(200);
      expect(await get(`/api/v1/jobs/${run.body.job_id}`, bob.key)).toMatchObject({ status: 404, body: { message: 'Job not found.' } });
      expect(await get('/api/v1/jobs/not-a-job', ann.key)).toMatchObject({ status: 404, body: { message: 'Job not found.' } });

      // Ann's document is found by Ann's key only
      const stored = await storeFile(server, ann.id, Buffer.from('Quarterly zebra licence renewal for the Springfield office.'), 'zebra.txt');
      expect(
        (await server.call('POST', '/api/plugins/document-search/index', { token: ann.access, body: { key: stored.key, bucket: stored.bucket } })).status,
      ).toBe(200);
      const mine = await post('/api/v1/documents/search', ann.key, { query: 'zebra licence' });
      expect(mine.status).toBe(200);
      expect(mine.body.results.map((r: { document: string }) => r.document)).toEqual(['zebra.txt']);
      expect(mine.body.results[0].documentText).toBe('Quarterly <mark>zebra</mark> <mark>licence</mark> renewal for the Springfield office');
      expect(await post('/api/v1/documents/search', bob.key, { query: 'zebra licence' })).toEqual(
        expect.objectContaining({ status: 200, body: { results: [] } }),
      );
    });
  });

  describe('recipes and jobs', () => {
    it('lists the same recipe ids as userByWorkatoRecipe, and the combinations of the catalogue', async () => {
      const records = await server.call('GET', `/api/platform/userByWorkatoRecipe/${ann.workatoId}/`, { token: ann.access });
      const list = await get('/api/v1/recipes', ann.key);
      expect(list.status).toBe(200);
      expect(list.body.recipes.map((r: { id: number }) => r.id)).toEqual(records.body.workato_recipes.map((r: { recipe_id: number }) => r.recipe_id));
      const pipeline = list.body.recipes.find((r: { combination_id: number }) => r.combination_id === C.pipeline);
      expect(pipeline).toEqual({
        id: expect.any(Number),
        combination_id: C.pipeline,
        name: 'Test recipe 9001',
        status: expect.any(String),
        running: expect.any(Boolean),
        job_succeeded_count: expect.any(Number),
        job_failed_count: expect.any(Number),
        updated_at: expect.any(String),
      });
      const combos = await get('/api/v1/combinations', ann.key);
      const browser = await server.call('GET', '/api/platform/combinations', { token: ann.access });
      expect(combos.status).toBe(200);
      expect(combos.body).toEqual({ combinations: browser.body });
    });

    it('starts, runs with the webhook payload, shows the run as started by the key, and stops', async () => {
      const user = await userWithKey(server, 'Zapier bridge');
      const rec = await recordOf(server, user, C.pipeline);
      const stopped = await post(`/api/v1/recipes/${rec.recipe_id}/runs`, user.key, { name: 'Ada' });
      expect(stopped).toMatchObject({ status: 409, body: { status: 'error', message: 'This workflow is stopped: start it (start_recipe), then try again.' } });
      expect(await post(`/api/v1/recipes/${rec.recipe_id}/start`, user.key)).toMatchObject({ status: 200, body: { id: rec.recipe_id, running: true } });

      const run = await post(`/api/v1/recipes/${rec.recipe_id}/runs`, user.key, { name: 'Ada', order: { total: 120.5 } });
      expect(run.status).toBe(200);
      expect(run.body).toEqual({ job_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      let job: any;
      for (let i = 0; i < 200; i++) {
        job = (await get(`/api/v1/jobs/${run.body.job_id}`, user.key)).body;
        if (job.status === 'succeeded' || job.status === 'failed') break;
        await sleep(50);
      }
      expect(job).toMatchObject({
        id: run.body.job_id,
        recipe_id: rec.recipe_id,
        combination_id: C.pipeline,
        status: 'succeeded',
        title: 'Test recipe 9001',
        error: null,
        attempt: 1,
      });
      expect(job.trigger_summary).toBe('API key "Zapier bridge": Webhook call with 2 fields');
      expect(job.steps.map((s: any) => [s.index, `${s.provider}:${s.action}`, s.status])).toEqual([
        [0, 'webhook:webhook_received', 'succeeded'],
        [1, 'flowmatic:transform', 'succeeded'],
        [2, 'flowmatic:store_record', 'succeeded'],
      ]);
      expect(job.steps[1].output).toEqual({ customer: 'Ada', total: 120.5, source: 'test' });
      // the same job, as the browser's job view shows it
      const browser = await server.call('GET', `/api/automation/jobs/${run.body.job_id}`, { token: user.access });
      expect(job).toEqual({ ...browser.body.job, steps: browser.body.steps });
      // the job history of the recipe names the key
      const history = await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs`, { token: user.access });
      expect(history.body.jobs[0]).toMatchObject({ id: run.body.job_id, trigger_summary: 'API key "Zapier bridge": Webhook call with 2 fields' });

      expect(await post(`/api/v1/recipes/${rec.recipe_id}/stop`, user.key)).toMatchObject({ status: 200, body: { id: rec.recipe_id, running: false } });
      // no body, even when a client labels the empty body as JSON
      const labelled = await server.app.inject({
        method: 'POST',
        url: `/api/v1/recipes/${rec.recipe_id}/start`,
        headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
      });
      expect([labelled.statusCode, JSON.parse(labelled.body)]).toEqual([200, { id: rec.recipe_id, running: true }]);
      await post(`/api/v1/recipes/${rec.recipe_id}/stop`, user.key);
      expect((await get('/api/v1/recipes', user.key)).body.recipes.find((r: { id: number }) => r.id === rec.recipe_id).running).toBe(false);
    });

    it("refuses a payload that does not fit the trigger's, and bad ids, with a sentence", async () => {
      expect(await post('/api/v1/recipes/abc/start', ann.key)).toMatchObject({
        status: 400,
        body: { message: 'recipe_id must be the number of one of your recipes (see list_recipes).' },
      });
      expect(await post('/api/v1/recipes/999999/start', ann.key)).toMatchObject({ status: 404, body: { message: 'Recipe not found.' } });
      const rec = await recordOf(server, ann, C.pipeline);
      await post(`/api/v1/recipes/${rec.recipe_id}/start`, ann.key);
      const list = await post(`/api/v1/recipes/${rec.recipe_id}/runs`, ann.key, [1, 2]);
      expect(list.status).toBe(400);
      expect(list.body.status).toBe('error');
    });
  });

  describe('AI workflows: the same data as the browser routes', () => {
    it('analyses emotions', async () => {
      const text = 'Thank you so much, this is wonderful! The meeting is at 3 pm.';
      const res = await post('/api/v1/emotions', ann.key, { text });
      expect(res).toMatchObject({
        status: 200,
        body: {
          data: [
            { emotion: 'joy', text: 'Thank you so much, this is wonderful!' },
            { emotion: 'neutral', text: 'The meeting is at 3 pm.' },
          ],
        },
      });
      expect(res.body).toEqual((await post('/api/api/text_processing_json/', ann.access, { text })).body);
      expect(await post('/api/v1/emotions', ann.key, {})).toMatchObject({
        status: 400,
        body: { message: 'Please enter the text to analyse (up to 20,000 characters).' },
      });
      expect(await post('/api/v1/emotions', ann.key, { text: 'x', extra: 1 })).toMatchObject({ status: 400, body: { status: 'error' } });
    });

    it('extracts an invoice synchronously', async () => {
      const invoice = await renderInvoicePdf({ seed: 11, layout: 'classic', font: 'helvetica' });
      const res = await post('/api/v1/invoices/extract', ann.key, { file_name: 'acme-invoice.pdf', file_base64: b64(invoice.pdf) });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ Status: 'SUCCEEDED', name: 'acme-invoice.pdf', pages: 1, ocr_pages: [], warnings: [] });
      const fields = Object.fromEntries(res.body.fields.map((f: { name: string; value: unknown }) => [f.name, f.value]));
      for (const name of ['invoice_number', 'invoice_date', 'due_date', 'total', 'subtotal', 'tax', 'currency'])
        expect([name, fields[name]]).toEqual([name, invoice.truth[name]]);
      expect(res.body.line_items).toHaveLength(invoice.data.lines.length);
      // the page's route on the same file answers the same fields
      const stored = await storeFile(server, ann.id, invoice.pdf, 'acme-invoice.pdf');
      const page = await post('/api/service/extract_data/', ann.access, { key: stored.key, bucket: stored.bucket });
      const strip = (b: any) => ({ ...b, Job_ID: undefined, key: undefined, bucket: undefined });
      expect(strip(res.body)).toEqual(strip(page.body));
      // Bob cannot read Ann's stored file through the page route either
      expect((await post('/api/service/extract_data/', bob.access, { key: stored.key, bucket: stored.bucket })).status).toBe(404);
      // the invoice read through the API is in Ann's document search, never in Bob's
      const number = String(invoice.truth.invoice_number);
      let found: any;
      for (let i = 0; i < 100; i++) {
        found = await post('/api/v1/documents/search', ann.key, { query: number });
        if (found.body.results?.length) break;
        await sleep(50);
      }
      expect(found.body.results.map((r: { document: string }) => r.document)).toContain('acme-invoice.pdf');
      // the search page's route answers the same results; the API's download link gives the file's bytes
      const pageSearch = await post('/api/nlp-document-store/query', ann.access, { query: number });
      const unlinked = (b: any) => b.results.map(({ documentUri, ...r }: any) => ({ ...r, link: documentUri.split('?')[0] }));
      expect(unlinked(found.body)).toEqual(unlinked(pageSearch.body));
      const hit = found.body.results.find((r: { document: string }) => r.document === 'acme-invoice.pdf');
      expect(hit.documentUri).toMatch(/^\/api\/files\/download\?token=/);
      const download = await server.app.inject({ method: 'GET', url: hit.documentUri });
      expect(download.statusCode).toBe(200);
      expect(Buffer.compare(download.rawPayload, Buffer.from(invoice.pdf))).toBe(0);
      expect(await post('/api/v1/documents/search', bob.key, { query: number })).toMatchObject({ status: 200, body: { results: [] } });

      expect(await post('/api/v1/invoices/extract', ann.key, { file_name: 'x.pdf' })).toMatchObject({
        status: 400,
        body: { message: "Please give the file's bytes in base64 as file_base64." },
      });
      expect(await post('/api/v1/invoices/extract', ann.key, { file_name: 'notes.txt', file_base64: b64('just some words') })).toMatchObject({
        status: 415,
        body: { status: 'error' },
      });
    });

    it('extracts an XML e-invoice sent as the file itself: its data, certain, named standalone, and searchable by its seller', async () => {
      // KoSIT's XRechnung test invoice 01.21a as UN/CEFACT CII (tests/fixtures/e-invoices)
      const xml = readFileSync(path.join(__dirname, '../../fixtures/e-invoices/xrechnung-01.21a-cii.xml'));
      const res = await post('/api/v1/invoices/extract', ann.key, { file_name: 'xrechnung-18383.xml', file_base64: b64(xml) });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ Status: 'SUCCEEDED', name: 'xrechnung-18383.xml', pages: 0, ocr_pages: [], warnings: [] });
      expect(res.body.e_invoice).toEqual({ format: 'XRechnung (CII)', attachment: 'xrechnung-18383.xml', standalone: true });
      const fields = Object.fromEntries(res.body.fields.map((f: { name: string; value: unknown }) => [f.name, f.value]));
      expect([fields.invoice_number, fields.vendor_name, fields.vendor_vat_id, fields.subtotal, fields.tax, fields.total, fields.currency]).toEqual([
        '18383',
        'Mustermann GmbH',
        'DE152338654',
        233,
        0,
        233,
        'EUR',
      ]);
      expect(res.body.line_items).toEqual([{ description: 'Tür Instandsetzung', quantity: 4, unit_price: 52, amount: 208, confidence: 0.99 }]);
      let found: any;
      for (let i = 0; i < 100; i++) {
        found = await post('/api/v1/documents/search', ann.key, { query: 'Mustermann Tür Instandsetzung' });
        if (found.body.results?.some((r: { document: string }) => r.document === 'xrechnung-18383.xml')) break;
        await sleep(50);
      }
      expect(found.body.results.map((r: { document: string }) => r.document)).toContain('xrechnung-18383.xml');
    });

    it('reconciles two CSVs with a config (saved as the page saves it)', async () => {
      const user = await userWithKey(server);
      const res = await post('/api/v1/reconciliations', user.key, {
        invoices_file_name: 'invoices.csv',
        invoices_base64: b64(INV),
        purchase_orders_file_name: 'po.csv',
        purchase_orders_base64: b64(PO),
        config: RECON_CONFIG,
      });
      expect(res.status).toBe(200);
      expect(res.body.custom_config.metadata).toMatchObject({ invoice_key: 'PO Number', purchase_order_key: 'PO Number', config_source: 'saved config' });
      expect(res.body.custom_config.unmatched_records.map((r: any) => JSON.stringify(r))).toEqual([expect.stringContaining('PO-8')]);
      expect(res.body.custom_config.discrepencies.map((d: any) => d.key)).toEqual(['PO-1', 'PO-1']);
      expect(res.body.custom_config.discrepencies.map((d: any) => d.message)).toContain('PO-1: invoiced total 30 differs from the ordered 25 by +5.');
      const saved = await server.call('GET', '/api/platform/invoiceReconciliationConfig?combination_id=10', { token: user.access });
      expect(saved.body.config_json).toContain("'EMAIL_TONE_OF_VOICE_NOT_MATCHED': 'formal'");
      const page = await post('/api/platform/invoice_reconciliation/comparison', user.access, {
        combination_id: 10,
        file1_name: 'invoices.csv',
        file1_binary: b64(INV),
        file2_name: 'po.csv',
        file2_binary: b64(PO),
      });
      // the same comparison as the page's, but for when it ran and how long it took
      const timeless = (body: any) => JSON.parse(JSON.stringify(body, (k, v) => (k === 'generated_at' || k === 'time_taken_ms' ? undefined : v)));
      expect(timeless(res.body)).toEqual(timeless(page.body));
      // a second config replaces the saved one (same row, as the page's PUT does)
      const again = await post('/api/v1/reconciliations', user.key, {
        invoices_file_name: 'invoices.csv',
        invoices_base64: b64(INV),
        purchase_orders_base64: b64(PO),
        config: { ...RECON_CONFIG, EMAIL_TONE_OF_VOICE_NOT_MATCHED: 'friendly' },
      });
      expect(again.status).toBe(200);
      const resaved = await server.call('GET', '/api/platform/invoiceReconciliationConfig?combination_id=10', { token: user.access });
      expect([resaved.body.id, resaved.body.config_json.includes("'EMAIL_TONE_OF_VOICE_NOT_MATCHED': 'friendly'")]).toEqual([saved.body.id, true]);

      expect(await post('/api/v1/reconciliations', user.key, { invoices_file_name: 'invoices.txt', invoices_base64: csv64(['a']) })).toMatchObject({
        status: 400,
        body: { message: 'invoices_file_name must be a .csv file name, e.g. invoices.csv.' },
      });
      expect(
        await post('/api/v1/reconciliations', user.key, {
          invoices_file_name: 'i.csv',
          invoices_base64: b64(INV),
          config: { ...RECON_CONFIG, EMAIL_TONE_OF_VOICE_MATCHED: 'shouty' },
        }),
      ).toMatchObject({ status: 400 });
    });

    it('analyses a financial statement: 202 with a job to poll, then the report', async () => {
      const user = await userWithKey(server);
      const res = await post('/api/v1/financial-analyses', user.key, {
        file_name: 'accounts.csv',
        file_base64: b64(STATEMENT_CSV),
        focus_area: 'sales-and-income',
      });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ job_id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'RUNNING', message: 'Analysing "accounts.csv".' });
      let state: any;
      for (let i = 0; i < 300; i++) {
        state = await get(`/api/v1/financial-analyses/${res.body.job_id}`, user.key);
        if (state.body.status !== 'RUNNING') break;
        await sleep(100);
      }
      expect(state.status).toBe(200);
      expect(state.body.status).toBe('COMPLETE');
      expect(state.body.job_id).toBe(res.body.job_id);
      expect(state.body.report.default.focus_area).toBe('overall-financial-position');
      expect(state.body.report.custom_config.focus_area).toBe('sales-and-income');
      expect(state.body.report.custom_config.lineItems.find((l: { id: string }) => l.id === 'revenue').values).toEqual([1_000_000, 1_200_000]);
      // the job id is a job for get_job too, and unknown to anyone else
      expect((await get(`/api/v1/jobs/${res.body.job_id}`, user.key)).body).toEqual(state.body);
      expect((await get(`/api/v1/financial-analyses/${res.body.job_id}`, bob.key)).status).toBe(404);
      expect((await get(`/api/v1/jobs/${res.body.job_id}`, bob.key)).status).toBe(404);
      expect(
        await post('/api/v1/financial-analyses', user.key, { file_name: 'accounts.csv', file_base64: b64(STATEMENT_CSV), focus_area: 'astrology' }),
      ).toMatchObject({ status: 400 });
    });
  });

  it('limits each key on its own (429 with retry_after), not the other keys', async () => {
    const user = await userWithKey(server, 'busy');
    let last: any;
    for (let i = 0; i < 61; i++) last = await get('/api/v1/combinations', user.key);
    expect(last.status).toBe(429);
    expect(last.body).toEqual({
      status: 'error',
      message: expect.stringMatching(/^Too many calls with this API key: the limit is 60 a minute\. Wait \d+ s and try again\.$/),
      retry_after: expect.any(Number),
    });
    expect(last.headers['retry-after']).toBeDefined();
    expect((await get('/api/v1/combinations', ann.key)).status).toBe(200);
  });
});

describe('public API on a server without the AI plugins', () => {
  let server: TestServer;
  let user: KeyUser;
  beforeAll(async () => {
    server = await startTestServer();
    user = await userWithKey(server, 'bare');
  });
  afterAll(() => server?.close());

  it('says which workflow is not installed (404), and the rest still works', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/api/v1/emotions', { text: 'Hello there.' }, 'The emotion analysis workflow is not installed on this server.'],
      ['/api/v1/documents/search', { query: 'invoice' }, 'The document search workflow is not installed on this server.'],
      ['/api/v1/invoices/extract', { file_name: 'a.pdf', file_base64: 'JVBERi0xLjQK' }, 'The invoice extraction workflow is not installed on this server.'],
      [
        '/api/v1/reconciliations',
        { invoices_file_name: 'a.csv', invoices_base64: 'YSxiCjEsMgo=' },
        'The invoice reconciliation workflow is not installed on this server.',
      ],
      [
        '/api/v1/financial-analyses',
        { file_name: 'a.csv', file_base64: 'YSxiCjEsMgo=', focus_area: 'sales-and-income' },
        'The financial analysis workflow is not installed on this server.',
      ],
    ];
    for (const [url, body, message] of cases) {
      expect([url, await server.call('POST', url, { token: user.key, body })]).toEqual([
        url,
        expect.objectContaining({ status: 404, body: { status: 'error', message } }),
      ]);
    }
    expect(await server.call('GET', '/api/v1/jobs/00000000-0000-4000-8000-000000000000', { token: user.key })).toMatchObject({
      status: 404,
      body: { message: 'Job not found.' },
    });
    expect((await server.call('GET', '/api/v1/recipes', { token: user.key })).status).toBe(200);
    expect((await server.call('GET', '/api/v1/combinations', { token: user.key })).status).toBe(200);
  });
});
