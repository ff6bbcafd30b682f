import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { discoverServerPlugins } from '../../../src/server/plugin-loader';
import { createUser, startTestServer, TEST_IDS, isTestId, type TestServer } from '../../../src/server/testing';

const repo = path.resolve(__dirname, '../../..');

/** The dropped-in workflow and combination: test ids (TEST_IDS), which no real plugin takes. */
const WORKFLOW = TEST_IDS.first + 99;
const COMBINATION = TEST_IDS.first + 99;

/**
 * A product team's whole recipe for a new workflow, dropped in at test time with no other file
 * touched: a plugin folder with its catalogue entry, migration, schema-validated route under
 * /api/plugins/{id}/, and a contribution kind of its own that a second plugin fills. Its ids are
 * test ids (TEST_IDS: plugin ids starting "test-", catalogue ids 900000-999999), so a real
 * vat-check plugin, or a real workflow 10099, loads beside it.
 */
describe('a complete plugin dropped in at test time', () => {
  const root = path.join(repo, '.tmp', `drop-in-${process.pid}-${Date.now()}`);
  const pluginsDir = path.join(root, 'plugins');
  let server: TestServer;

  beforeAll(async () => {
    const face = path.relative(path.join(pluginsDir, 'test-vat-check'), path.join(repo, 'src/server')).replace(/\\/g, '/');
    mkdirSync(path.join(pluginsDir, 'test-vat-check'), { recursive: true });
    mkdirSync(path.join(pluginsDir, 'test-vat-eu'), { recursive: true });
    mkdirSync(path.join(root, 'schemas', 'test-vat-check'), { recursive: true });
    writeFileSync(
      path.join(root, 'schemas', 'test-vat-check', 'check.schema.json'),
      JSON.stringify({
        type: 'object',
        additionalProperties: false,
        required: ['number'],
        errorMessage: { required: { number: 'Please give a VAT number.' } },
        properties: { number: { type: 'string', minLength: 4, maxLength: 20, title: 'VAT number' } },
      }),
    );
    writeFileSync(
      path.join(pluginsDir, 'test-vat-check', 'kinds.ts'),
      `import { contributionKind } from '${face}';
export interface VatValidator { prefix: string; country: string; valid(n: string): boolean }
export const VatValidators = contributionKind<VatValidator>('test-vat-check.validator', 'VAT validator', (v) => v.prefix);
`,
    );
    writeFileSync(
      path.join(pluginsDir, 'test-vat-check', 'server.ts'),
      `import { sql } from 'kysely';
import { defineServerPlugin, T, SOLUTIONS, connectors, trigger, AI_PROVIDER, userOf, badRequest } from '${face}';
import schema from '../../schemas/test-vat-check/check.schema.json';
import { VatValidators } from './kinds';
export default defineServerPlugin({
  id: 'test-vat-check',
  declares: [VatValidators],
  needs: { db: T.Db, contributions: T.Contributions },
  migrations: [{ id: 'test-vat-check/0001_checks', async up(db) { await sql\`create table test_vat_checks (user_id integer not null, number text not null, valid boolean not null)\`.execute(db); } }],
  catalogue: {
    workflows: [{ id: ${WORKFLOW}, solution_id: SOLUTIONS.finance.id, name: 'VAT Number Check', descrption: 'Checks the VAT numbers of your suppliers.', icon: 'invoice' }],
    combinations: [{
      id: ${COMBINATION}, workflow_id: ${WORKFLOW}, order: 1, name: 'VAT Number Check (basic)', sub_title: 'Paste a number, see if it is valid', icon: 'invoice',
      created_time: '2026-11-22T10:00:00Z', status: 'active', enabled: true, recommended: false, completes_on_start: true,
      triggers: [trigger('text_submitted')], connectors: connectors('manual_upload', AI_PROVIDER),
      recipe: { name: 'VAT Number Check Basic', description: 'Checks one VAT number.', steps: [{ kind: 'trigger', provider: 'manual_upload', action: 'file_uploaded' }] },
    }],
  },
  routes(app, { db, contributions }) {
    app.post('/api/plugins/test-vat-check/check', { auth: 'user', schema: { body: schema } }, async (request) => {
      const number = (request.body as { number: string }).number.toUpperCase();
      const validator = contributions.of(VatValidators).values().find((v) => number.startsWith(v.prefix));
      if (!validator) throw badRequest('No validator knows that country.');
      const valid = validator.valid(number);
      await db.insertInto('test_vat_checks' as never).values({ user_id: userOf(request).id, number, valid } as never).execute();
      return { country: validator.country, valid };
    });
  },
});
`,
    );
    writeFileSync(
      path.join(pluginsDir, 'test-vat-eu', 'server.ts'),
      `import { defineServerPlugin, contribute } from '${face}';
import { VatValidators } from '../test-vat-check/kinds';
export default defineServerPlugin({
  id: 'test-vat-eu',
  contributes: [contribute(VatValidators, { prefix: 'DE', country: 'Germany', valid: (n) => /^DE[0-9]{9}$/.test(n) })],
});
`,
    );
    const plugins = await discoverServerPlugins(pluginsDir);
    server = await startTestServer({ plugins: [...plugins, ...(await discoverServerPlugins(path.join(repo, 'plugins')))] });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('seeds its catalogue entry, runs its migration and serves its route with the kind another plugin fills', async () => {
    const user = await createUser(server, { email: 'vat@example.com' });
    const wf = await server.call('GET', `/api/platform/workflows/${WORKFLOW}/`, { token: user.access });
    expect(wf.status).toBe(200);
    expect(wf.body.name).toBe('VAT Number Check');
    expect(wf.body.combinations.map((c: { id: number }) => c.id)).toEqual([COMBINATION]);

    const ok = await server.call('POST', '/api/plugins/test-vat-check/check', { token: user.access, body: { number: 'de123456789' } });
    expect(ok).toMatchObject({ status: 200, body: { country: 'Germany', valid: true } });
    const unknown = await server.call('POST', '/api/plugins/test-vat-check/check', { token: user.access, body: { number: 'FR12345' } });
    expect(unknown).toMatchObject({ status: 400, body: { message: 'No validator knows that country.' } });
    const rows = await server.db
      .selectFrom('test_vat_checks' as never)
      .selectAll()
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('says the same sentence as the forms for its schema rules, after authentication', async () => {
    const user = await createUser(server, { email: 'vat2@example.com' });
    expect(await server.call('POST', '/api/plugins/test-vat-check/check', { body: {} })).toMatchObject({ status: 401 });
    expect(await server.call('POST', '/api/plugins/test-vat-check/check', { token: user.access, body: {} })).toMatchObject({
      status: 400,
      body: { message: 'Please give a VAT number.' },
    });
    expect(await server.call('POST', '/api/plugins/test-vat-check/check', { token: user.access, body: { number: 'DE' } })).toMatchObject({
      status: 400,
      body: { message: 'VAT number must be at least 4 characters long.' },
    });
  });

  it('refuses a plugin route outside the spec paths and its own prefix, naming it', async () => {
    const bad = path.join(root, 'bad-plugins', 'rogue');
    mkdirSync(bad, { recursive: true });
    const face = path.relative(bad, path.join(repo, 'src/server')).replace(/\\/g, '/');
    writeFileSync(
      path.join(bad, 'server.ts'),
      `import { defineServerPlugin } from '${face}';\nexport default defineServerPlugin({ id: 'rogue', routes(app) { app.get('/api/platform/users', async () => []); } });\n`,
    );
    const plugins = await discoverServerPlugins(path.dirname(bad));
    await expect(startTestServer({ plugins })).rejects.toThrow('Plugin "rogue" registers /api/platform/users');
  });
});

describe('test ids (TEST_IDS) are kept for tests', () => {
  it('no plugin under plugins/ takes a test plugin id, folder name or catalogue id', async () => {
    const real = await discoverServerPlugins(path.join(repo, 'plugins'));
    expect(real.length).toBeGreaterThan(5);
    const taken = real.flatMap((p) => {
      const ids = [
        ...(p.catalogue?.solutions ?? []).map((x) => ['solution', x.id] as const),
        ...(p.catalogue?.workflows ?? []).map((x) => ['workflow', x.id] as const),
        ...(p.catalogue?.combinations ?? []).map((x) => ['combination', x.id] as const),
      ];
      return [
        ...(p.id.startsWith(TEST_IDS.pluginPrefix) ? [`plugin id ${p.id}`] : []),
        ...ids.filter(([, id]) => isTestId(id)).map(([kind, id]) => `${p.id}: ${kind} ${id}`),
      ];
    });
    const folders = readdirSync(path.join(repo, 'plugins')).filter((d) => d.startsWith(TEST_IDS.pluginPrefix));
    expect([...taken, ...folders]).toEqual([]);
    expect([isTestId(899_999), isTestId(900_000), isTestId(999_999), isTestId(1_000_000), isTestId(10099)]).toEqual([false, true, true, false, false]);
  });
});
