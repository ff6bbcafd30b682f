import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { renderInvoicePdf } from '../../support/invoices/render';
import { STATEMENT_CSV } from '../../support/finance/statement';
import type { TestServer } from '../../support/server';
import { C, recordOf, sleep } from '../automation/support';
import { storeFile } from '../extraction-routes/support';
import { apiServer, userWithKey } from './support';

jest.setTimeout(120_000);

const TOOLS = [
  'list_combinations',
  'list_recipes',
  'start_recipe',
  'stop_recipe',
  'run_recipe',
  'get_job',
  'extract_invoice',
  'analyse_emotion',
  'search_documents',
  'reconcile_invoices',
  'analyse_financial_statement',
];
const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');
const PO = 'PO Number,Vendor,Vendor Email,Description,Qty,Unit Price,Total\nPO-1,Acme Ltd,ar@acme.example,Bolts,10,2.50,25.00\n';
const INV = 'Invoice Number,PO Number,Vendor,Description,Qty,Unit Price,Total\nI-1,PO-1,Acme Ltd,Bolts,12,2.50,30.00\nI-3,PO-8,Globex,Toner,1,5.00,5.00\n';

type User = Awaited<ReturnType<typeof userWithKey>>;
type Result = { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: any };

describe('MCP server at /mcp (Streamable HTTP, official SDK client)', () => {
  let server: TestServer;
  let ann: User;
  let bob: User;
  let client: Client;
  let bobClient: Client;

  async function connect(key: string): Promise<Client> {
    const c = new Client({ name: 'test-assistant', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    return c;
  }
  const call = async (c: Client, name: string, args: Record<string, unknown> = {}) => (await c.callTool({ name, arguments: args })) as Result;

  beforeAll(async () => {
    server = await apiServer({ listen: true });
    ann = await userWithKey(server, 'Claude desktop');
    bob = await userWithKey(server, 'Bob assistant');
    client = await connect(ann.key);
    bobClient = await connect(bob.key);
  });
  afterAll(async () => {
    await client?.close();
    await bobClient?.close();
    await server?.close();
  });

  it('lists exactly the 11 tools, each with an object input schema and a description', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect((t.description ?? '').length).toBeGreaterThan(80);
      // what the result's structuredContent holds (the SDK client checks each result against it)
      expect([t.name, t.outputSchema?.type]).toEqual([t.name, 'object']);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.analyse_emotion.inputSchema).toEqual({
      type: 'object',
      title: 'Emotion analysis of text',
      description: 'Body of POST /api/api/text_processing_json/: the text whose sentences are labelled with an emotion.',
      additionalProperties: false,
      required: ['text'],
      properties: { text: { type: 'string', minLength: 1, maxLength: 20000 } },
    });
    expect(byName.extract_invoice.inputSchema.required).toEqual(['file_name', 'file_base64']);
    expect(byName.run_recipe.inputSchema.required).toEqual(['recipe_id', 'payload']);
    expect(byName.get_job.inputSchema.required).toEqual(['job_id']);
    expect(byName.start_recipe.inputSchema.properties).toEqual({
      recipe_id: { type: 'integer', minimum: 1, description: "the recipe's id, from list_recipes" },
    });
    expect(byName.list_recipes.inputSchema).toMatchObject({ type: 'object', properties: {} });
    // the reconciliation settings are the form's schema
    const settings = (byName.reconcile_invoices.inputSchema.properties as any).config;
    expect(settings.title).toBe('Reconciliation settings');
    expect(settings.properties.EMAIL_TONE_OF_VOICE_MATCHED.oneOf.map((o: { const: string }) => o.const)).toEqual([
      'formal',
      'empathetic',
      'friendly',
      'casual',
      'authoritative',
      'humorous',
    ]);
    expect((byName.analyse_financial_statement.inputSchema.properties as any).focus_area.oneOf).toHaveLength(5);
  });

  it('analyse_emotion answers the emotion of each sentence', async () => {
    const res = await call(client, 'analyse_emotion', { text: 'Thank you so much, this is wonderful! The meeting is at 3 pm.' });
    expect(res.isError).toBeFalsy();
    const data = [
      { emotion: 'joy', text: 'Thank you so much, this is wonderful!' },
      { emotion: 'neutral', text: 'The meeting is at 3 pm.' },
    ];
    expect(res.structuredContent).toEqual({ data });
    expect(JSON.parse(res.content[0].text)).toEqual({ data });
  });

  it('list_combinations and list_recipes answer what the REST routes answer', async () => {
    const combos = await call(client, 'list_combinations');
    expect(combos.structuredContent).toEqual((await server.call('GET', '/api/v1/combinations', { token: ann.key })).body);
    expect(combos.structuredContent.combinations.map((c: { id: number }) => c.id)).toContain(C.pipeline);
    const recipes = await call(client, 'list_recipes');
    const records = await server.call('GET', `/api/platform/userByWorkatoRecipe/${ann.workatoId}/`, { token: ann.access });
    expect(recipes.structuredContent.recipes.map((r: { id: number }) => r.id)).toEqual(
      records.body.workato_recipes.map((r: { recipe_id: number }) => r.recipe_id),
    );
  });

  it('start_recipe, run_recipe (job_id), get_job (status) and stop_recipe; the run names the key', async () => {
    const rec = await recordOf(server, ann, C.pipeline);
    expect((await call(client, 'start_recipe', { recipe_id: rec.recipe_id })).structuredContent).toEqual({ id: rec.recipe_id, running: true });
    const run = await call(client, 'run_recipe', { recipe_id: rec.recipe_id, payload: { name: 'Grace', order: { total: 7 } } });
    expect(run.isError).toBeFalsy();
    expect(run.structuredContent).toEqual({ job_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    let job: Result | undefined;
    for (let i = 0; i < 200; i++) {
      job = await call(client, 'get_job', { job_id: run.structuredContent.job_id });
      if (['succeeded', 'failed'].includes(job.structuredContent.status)) break;
      await sleep(50);
    }
    expect(job!.structuredContent).toMatchObject({
      id: run.structuredContent.job_id,
      status: 'succeeded',
      trigger_summary: 'API key "Claude desktop": Webhook call with 2 fields',
    });
    expect(job!.structuredContent.steps[1].output).toEqual({ customer: 'Grace', total: 7, source: 'test' });
    expect((await call(client, 'stop_recipe', { recipe_id: rec.recipe_id })).structuredContent).toEqual({ id: rec.recipe_id, running: false });
    const stopped = await call(client, 'run_recipe', { recipe_id: rec.recipe_id, payload: {} });
    expect(stopped).toMatchObject({ isError: true, content: [{ type: 'text', text: 'This workflow is stopped: start it (start_recipe), then try again.' }] });

    // Bob's assistant cannot reach Ann's recipe or job: error results, and its session goes on
    for (const [name, args] of [
      ['start_recipe', { recipe_id: rec.recipe_id }],
      ['stop_recipe', { recipe_id: rec.recipe_id }],
      ['run_recipe', { recipe_id: rec.recipe_id, payload: {} }],
    ] as const) {
      expect(await call(bobClient, name, args)).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Recipe not found.' }] });
    }
    expect(await call(bobClient, 'get_job', { job_id: run.structuredContent.job_id })).toMatchObject({ isError: true, content: [{ text: 'Job not found.' }] });
    expect((await call(bobClient, 'analyse_emotion', { text: 'Fine.' })).isError).toBeFalsy();
  });

  it('extract_invoice answers the invoice fields', async () => {
    const invoice = await renderInvoicePdf({ seed: 11, layout: 'classic', font: 'helvetica' });
    const res = await call(client, 'extract_invoice', { file_name: 'acme-invoice.pdf', file_base64: b64(invoice.pdf) });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ Status: 'SUCCEEDED', name: 'acme-invoice.pdf', pages: 1, warnings: [] });
    const fields = Object.fromEntries(res.structuredContent.fields.map((f: { name: string; value: unknown }) => [f.name, f.value]));
    for (const name of ['invoice_number', 'invoice_date', 'due_date', 'total', 'subtotal', 'tax', 'currency'])
      expect([name, fields[name]]).toEqual([name, invoice.truth[name]]);
  });

  it("search_documents finds the user's own documents only", async () => {
    const stored = await storeFile(server, ann.id, Buffer.from('The walrus maintenance contract renews every April.'), 'walrus.txt');
    await server.call('POST', '/api/plugins/document-search/index', { token: ann.access, body: { key: stored.key, bucket: stored.bucket } });
    const mine = await call(client, 'search_documents', { query: 'walrus contract' });
    expect(mine.structuredContent.results.map((r: { document: string }) => r.document)).toEqual(['walrus.txt']);
    expect(mine.structuredContent.results[0].documentText).toBe('<mark>walrus</mark> maintenance <mark>contract</mark> renews every April');
    expect((await call(bobClient, 'search_documents', { query: 'walrus contract' })).structuredContent).toEqual({ results: [] });
  });

  it('reconcile_invoices answers both sides; analyse_financial_statement answers a job polled with get_job', async () => {
    const rec = await call(client, 'reconcile_invoices', {
      invoices_file_name: 'inv.csv',
      invoices_base64: b64(INV),
      purchase_orders_file_name: 'po.csv',
      purchase_orders_base64: b64(PO),
    });
    expect(rec.isError).toBeFalsy();
    expect(rec.structuredContent.default.metadata).toMatchObject({ invoice_key: 'PO Number', purchase_order_key: 'PO Number' });
    expect(rec.structuredContent.default.unmatched_records.map((r: unknown) => JSON.stringify(r))).toEqual([expect.stringContaining('PO-8')]);

    const started = await call(client, 'analyse_financial_statement', {
      file_name: 'accounts.csv',
      file_base64: b64(STATEMENT_CSV),
      focus_area: 'cash-flow-management',
    });
    expect(started.structuredContent).toEqual({ job_id: expect.any(String), status: 'RUNNING', message: 'Analysing "accounts.csv".' });
    let state: Result | undefined;
    for (let i = 0; i < 300; i++) {
      state = await call(client, 'get_job', { job_id: started.structuredContent.job_id });
      if (state.structuredContent.status !== 'RUNNING') break;
      await sleep(100);
    }
    expect(state!.structuredContent).toMatchObject({
      job_id: started.structuredContent.job_id,
      status: 'COMPLETE',
      report: { custom_config: { focus_area: 'cash-flow-management' } },
    });
    expect(await call(bobClient, 'get_job', { job_id: started.structuredContent.job_id })).toMatchObject({
      isError: true,
      content: [{ text: 'Job not found.' }],
    });
  });

  it('bad input is an error result naming the field, an unknown tool is -32602, and the session goes on', async () => {
    expect(await call(client, 'analyse_emotion', {})).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Please enter the text to analyse (up to 20,000 characters).' }],
    });
    expect(await call(client, 'analyse_emotion', { text: 42 })).toMatchObject({
      isError: true,
      content: [{ text: 'Please enter the text to analyse (up to 20,000 characters).' }],
    });
    expect(await call(client, 'start_recipe', { recipe_id: 'one' })).toMatchObject({
      isError: true,
      content: [{ text: 'recipe_id must be the number of one of your recipes (see list_recipes).' }],
    });
    expect(await call(client, 'get_job', { job_id: 'nope' })).toMatchObject({ isError: true, content: [{ text: 'Job not found.' }] });
    expect(await call(client, 'extract_invoice', { file_name: 'x.pdf', file_base64: '***' })).toMatchObject({
      isError: true,
      content: [{ text: "file_base64 must be the file's bytes in base64." }],
    });
    expect(await call(client, 'extract_invoice', { file_name: 'x.pdf', file_base64: '*****' })).toMatchObject({
      isError: true,
      content: [{ text: '"x.pdf" was not sent as base64, so it could not be read.' }],
    });
    expect(await call(client, 'run_recipe', { recipe_id: 1 })).toMatchObject({
      isError: true,
      content: [{ text: "Please give the payload: the fields the recipe's trigger takes (an object, {} for none)." }],
    });
    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    // still the same session, still working
    const after = await call(client, 'analyse_emotion', { text: 'I am so happy today.' });
    expect(after).toMatchObject({ structuredContent: { data: [{ emotion: 'joy', text: 'I am so happy today.' }] } });
  });

  it('refuses no key, a wrong key and a revoked key with 401 (the SDK client cannot connect)', async () => {
    const made = await server.call('POST', '/api/v1/keys', { token: ann.access, body: { name: 'short-lived' } });
    const c = await connect(made.body.key);
    expect((await call(c, 'analyse_emotion', { text: 'ok' })).isError).toBeFalsy();
    await server.call('DELETE', `/api/v1/keys/${made.body.id}`, { token: ann.access });
    await expect(c.listTools()).rejects.toThrow(/401/);
    await c.close().catch(() => undefined);
    await expect(connect(`fm_${'y'.repeat(43)}`)).rejects.toThrow(/401/);
    const raw = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({
      status: 'error',
      message: 'Send your API key as "Authorization: Bearer fm_…" (create one in My Account → API keys).',
    });
  });
});
