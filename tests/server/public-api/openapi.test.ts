import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { STATEMENT_CSV } from '../../support/finance/statement';
import type { TestServer } from '../../support/server';
import { C, recordOf, sleep } from '../automation/support';
import { apiServer, userWithKey } from './support';

jest.setTimeout(120_000);

/**
 * Validates a document with @seriousme/openapi-schema-validator (ESM only, so in a child Node
 * process): its verdict, the version it found and the errors.
 */
function validateOpenApi(document: unknown): { valid: boolean; version?: string; errors?: unknown } {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const script = `import { Validator } from '@seriousme/openapi-schema-validator';
const v = new Validator();
const res = await v.validate(${JSON.stringify(file)});
process.stdout.write(JSON.stringify({ valid: res.valid, version: v.version, errors: res.errors }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' });
    return JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the OpenAPI 3.1 document and the docs page', () => {
  let server: TestServer;
  let doc: any;
  let ajv: Ajv2020;

  /** Checks a reply against the schema the document gives for that operation and status. */
  function expectDocumented(method: string, docPath: string, res: { status: number; body: unknown; headers: Record<string, unknown> }) {
    const op = doc.paths[docPath]?.[method.toLowerCase()];
    expect([docPath, method, op ? 'documented' : 'missing']).toEqual([docPath, method, 'documented']);
    const reply = op.responses[String(res.status)];
    expect([docPath, res.status, reply ? 'documented' : 'missing']).toEqual([docPath, res.status, 'documented']);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    const ref = reply.content['application/json'].schema.$ref as string;
    const validate = ajv.getSchema(`https://flowmatic.test/openapi${ref}`)!;
    const ok = validate(res.body);
    expect([docPath, res.status, ok ? 'valid' : validate.errors]).toEqual([docPath, res.status, 'valid']);
  }

  beforeAll(async () => {
    server = await apiServer();
    const res = await server.call('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'https://flowmatic.test/openapi', components: doc.components });
  });
  afterAll(() => server?.close());

  it('is served without a key and is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', () => {
    expect(doc.openapi).toBe('3.1.0');
    const verdict = validateOpenApi(doc);
    expect(verdict).toEqual({ valid: true, version: '3.1' });
  });

  it('documents every operation of the issue, and every status with an application/json schema', () => {
    const operations = Object.entries(doc.paths).flatMap(([p, ops]: [string, any]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(operations.sort()).toEqual(
      [
        'GET /api/v1/combinations',
        'GET /api/v1/recipes',
        'POST /api/v1/recipes/{id}/start',
        'POST /api/v1/recipes/{id}/stop',
        'POST /api/v1/recipes/{id}/runs',
        'GET /api/v1/jobs/{id}',
        'POST /api/v1/invoices/extract',
        'POST /api/v1/emotions',
        'POST /api/v1/documents/search',
        'POST /api/v1/reconciliations',
        'POST /api/v1/financial-analyses',
        'GET /api/v1/financial-analyses/{id}',
        'POST /api/v1/keys',
        'GET /api/v1/keys',
        'DELETE /api/v1/keys/{id}',
      ].sort(),
    );
    for (const [p, ops] of Object.entries<any>(doc.paths)) {
      for (const [m, op] of Object.entries<any>(ops)) {
        expect([p, m, Object.keys(op.responses)]).toEqual([p, m, expect.arrayContaining(['401', '429', '500'])]);
        for (const [status, reply] of Object.entries<any>(op.responses)) {
          const ref = reply.content?.['application/json']?.schema?.$ref;
          expect([p, m, status, typeof ref]).toEqual([p, m, status, 'string']);
          expect(ajv.getSchema(`https://flowmatic.test/openapi${ref}`)).toBeDefined();
        }
      }
    }
    // generated from the shared schemas: the emotion body is the page's schema, the combination the catalogue's
    expect(doc.paths['/api/v1/emotions'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/EmotionAnalysisTextProcessing');
    expect(doc.components.schemas.EmotionAnalysisTextProcessing.properties.text).toEqual({ type: 'string', minLength: 1, maxLength: 20000 });
    expect(doc.components.schemas.PublicApiCombinationList.properties.combinations.items).toEqual({ $ref: '#/components/schemas/CatalogueCombination' });
    expect(doc.components.schemas.CatalogueCombination.properties.connectors.items).toEqual({ $ref: '#/components/schemas/CatalogueConnector' });
  });

  it('replies match their documented schemas', async () => {
    const user = await userWithKey(server, 'Docs check');
    const key = user.key;
    expectDocumented('GET', '/api/v1/keys', await server.call('GET', '/api/v1/keys', { token: user.access }));
    expectDocumented('POST', '/api/v1/keys', await server.call('POST', '/api/v1/keys', { token: user.access, body: { name: 'second' } }));
    expectDocumented('POST', '/api/v1/keys', await server.call('POST', '/api/v1/keys', { token: user.access, body: {} }));
    expectDocumented('GET', '/api/v1/combinations', await server.call('GET', '/api/v1/combinations', { token: key }));
    expectDocumented('GET', '/api/v1/recipes', await server.call('GET', '/api/v1/recipes', { token: key }));
    expectDocumented('GET', '/api/v1/recipes', await server.call('GET', '/api/v1/recipes'));
    const rec = await recordOf(server, user, C.pipeline);
    expectDocumented(
      'POST',
      '/api/v1/recipes/{id}/runs',
      await server.call('POST', `/api/v1/recipes/${rec.recipe_id}/runs`, { token: key, body: { name: 'x' } }),
    );
    expectDocumented('POST', '/api/v1/recipes/{id}/start', await server.call('POST', `/api/v1/recipes/${rec.recipe_id}/start`, { token: key }));
    expectDocumented('POST', '/api/v1/recipes/{id}/start', await server.call('POST', '/api/v1/recipes/999999/start', { token: key }));
    const run = await server.call('POST', `/api/v1/recipes/${rec.recipe_id}/runs`, { token: key, body: { name: 'Ada', order: { total: 3 } } });
    expectDocumented('POST', '/api/v1/recipes/{id}/runs', run);
    let job: any;
    for (let i = 0; i < 200; i++) {
      job = await server.call('GET', `/api/v1/jobs/${run.body.job_id}`, { token: key });
      if (job.body.status === 'succeeded') break;
      await sleep(50);
    }
    expect(job.body.status).toBe('succeeded');
    expectDocumented('GET', '/api/v1/jobs/{id}', job);
    expectDocumented('POST', '/api/v1/recipes/{id}/stop', await server.call('POST', `/api/v1/recipes/${rec.recipe_id}/stop`, { token: key }));
    expectDocumented(
      'POST',
      '/api/v1/emotions',
      await server.call('POST', '/api/v1/emotions', { token: key, body: { text: 'What a lovely day. I am furious.' } }),
    );
    expectDocumented('POST', '/api/v1/emotions', await server.call('POST', '/api/v1/emotions', { token: key, body: { text: '' } }));
    expectDocumented('POST', '/api/v1/documents/search', await server.call('POST', '/api/v1/documents/search', { token: key, body: { query: 'invoice' } }));
    // a financial analysis: 202, then its state, by its own route and as a job
    const started = await server.call('POST', '/api/v1/financial-analyses', {
      token: key,
      body: { file_name: 'accounts.csv', file_base64: Buffer.from(STATEMENT_CSV).toString('base64'), focus_area: 'sales-and-income' },
    });
    expectDocumented('POST', '/api/v1/financial-analyses', started);
    let state: any;
    for (let i = 0; i < 300; i++) {
      state = await server.call('GET', `/api/v1/financial-analyses/${started.body.job_id}`, { token: key });
      if (state.body.status !== 'RUNNING') break;
      await sleep(100);
    }
    expect(state.body.status).toBe('COMPLETE');
    expectDocumented('GET', '/api/v1/financial-analyses/{id}', state);
    expectDocumented('GET', '/api/v1/jobs/{id}', await server.call('GET', `/api/v1/jobs/${started.body.job_id}`, { token: key }));
  });

  it('serves the docs page from this server: HTML whose scripts and styles are all local', async () => {
    const page = await server.call('GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
    const html = String(page.body);
    expect(html).toContain('<title>Flowmatic API</title>');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs) expect([ref, /^(https?:)?\/\//.test(ref)]).toEqual([ref, false]);
    for (const asset of ['/api/docs/static/swagger-ui-bundle.js', '/api/docs/static/swagger-ui.css', '/api/docs/static/swagger-initializer.js']) {
      const res = await server.app.inject({ method: 'GET', url: asset });
      expect([asset, res.statusCode]).toEqual([asset, 200]);
    }
    const fed = await server.call('GET', '/api/docs/json');
    expect(fed.body).toEqual(doc);
  });
});
