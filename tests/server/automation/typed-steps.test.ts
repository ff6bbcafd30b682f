/**
 * Issue 22: engine steps declared with defineAction / defineTrigger — settings checked with their
 * JSON Schema (at start and, once '{{field}}' is filled, before the step runs), the plugin's
 * services injected after its needs are resolved, the declared connection resolved and refreshed
 * (a 401 refreshes once; refused again, the connection is marked lost and the step fails for
 * good), the safe HTTP client's POST, and a push trigger started from a plugin route.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { token } from '../../../src/core/di';
import { provide } from '../../../src/core/plugin';
import { defineAction, defineServerPlugin, defineTrigger, NotConnectedError, PushTriggers, T, userOf, type FileRef } from '../../../src/server';
import { type CombinationSeed } from '../../../src/core/wire-types';
import { AutomationOptions, type EngineOptions } from '../../../src/server/automation';
import { Connections } from '../../../src/server/connections';
import { combinationRow } from '../../../src/server/catalogue/seed';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { combination, FAST, recordOf, startRecipe, waitForJob, webhookPath } from './support';

jest.setTimeout(60_000);

const COMBOS = { push: 9101, invalid: 9102, post: 9103, auth: 9104 } as const;

/** A service the test plugin provides and its steps receive as `ctx.services`. */
interface Greeter {
  greet(name: string): string;
}
const GreeterToken = token<Greeter>('TypedStepsGreeter');

const orderPayload = {
  type: 'object' as const,
  required: ['order_id'],
  properties: { order_id: { type: 'string' as const, minLength: 1, description: 'the order number' }, total: { type: 'number' as const } },
};

const typedPlugin = defineServerPlugin({
  id: 'typed-steps-test',
  provides: [provide(GreeterToken, () => ({ greet: (name: string) => `Hi ${name}!` }))],
  needs: { greeter: GreeterToken, push: PushTriggers },
  steps: ({ greeter }) => [
    defineAction<{ name: string; times: number; to?: string; sign?: string }, unknown, unknown, { greeter: Greeter }>({
      provider: 'typed_test',
      action: 'greet',
      title: 'Greet someone',
      settings: {
        type: 'object',
        required: ['name', 'times'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1 },
          times: { type: 'integer', minimum: 1, maximum: 3 },
          to: { type: 'string', format: 'email' },
          sign: { type: 'string', default: 'the team' },
        },
      },
      output: { type: 'object', properties: { text: { type: 'string' } } },
      async run(_input, ctx) {
        return {
          text: Array.from({ length: ctx.settings.times }, () => ctx.services.greeter.greet(ctx.settings.name)).join(' '),
          to: ctx.settings.to ?? null,
          sign: ctx.settings.sign,
          same_service: ctx.services.greeter === greeter,
          key: ctx.idempotencyKey,
        };
      },
    }),
    defineAction<{ url: string; note: string }>({
      provider: 'typed_test',
      action: 'post_out',
      title: 'Post to a web address',
      settings: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' }, note: { type: 'string' } } },
      retries: 2,
      async run(input, ctx) {
        const res = await ctx.http.post(
          ctx.settings.url,
          { note: ctx.settings.note, order: (input as { data?: unknown }).data ?? null },
          { headers: { 'x-step': 'post_out' } },
        );
        return { status: res.status, answer: res.json };
      },
    }),
    defineAction<{ url: string }>({
      provider: 'acme_crm',
      action: 'list_contacts',
      title: 'List the CRM contacts',
      auth: 'acme_crm',
      settings: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } },
      async run(_input, ctx) {
        const res = await ctx.http.get(ctx.settings.url, { auth: true });
        return { status: res.status, answer: res.json, account: ctx.connection?.accountId ?? null };
      },
    }),
    defineTrigger({ provider: 'typed_test', action: 'order_placed', title: 'An order was placed', payload: orderPayload }),
  ],
  routes(app, { push }) {
    app.post('/api/plugins/typed-steps-test/orders', { auth: 'user' }, async (request) => {
      const { jobId } = await push.run({
        managedUserId: userOf(request).workatoId,
        combinationId: COMBOS.push,
        trigger: 'typed_test:order_placed',
        data: request.body as Record<string, unknown>,
      });
      return { job_id: jobId };
    });
    // a push with files of the owner's FileStore (each is checked to be the owner's)
    app.post('/api/plugins/typed-steps-test/orders-with-files', { auth: 'user' }, async (request) => {
      const body = request.body as { files: FileRef[]; data: Record<string, unknown> };
      return push.run({
        managedUserId: userOf(request).workatoId,
        combinationId: COMBOS.push,
        trigger: 'typed_test:order_placed',
        data: body.data,
        files: body.files,
      });
    });
    // a push naming a trigger its recipe does not start from
    app.post('/api/plugins/typed-steps-test/wrong', { auth: 'user' }, async (request) =>
      push.run({ managedUserId: userOf(request).workatoId, combinationId: COMBOS.post, trigger: 'typed_test:order_placed', data: {} }),
    );
  },
});

const WEBHOOK = { kind: 'trigger', provider: 'webhook', action: 'webhook_received' } as const;
const combos: CombinationSeed[] = [
  combination(COMBOS.push, [
    { kind: 'trigger', provider: 'typed_test', action: 'order_placed' },
    { kind: 'action', provider: 'typed_test', action: 'greet', params: { name: '{{name}}', times: '{{count}}', to: '{{email}}' } },
  ]),
  combination(COMBOS.invalid, [WEBHOOK, { kind: 'action', provider: 'typed_test', action: 'greet', params: { name: 'Ann', times: 5 } }]),
  combination(COMBOS.post, [
    WEBHOOK,
    { kind: 'action', provider: 'typed_test', action: 'post_out', params: { url: '{{target}}', note: 'order {{order_id}} of {{total}}' } },
  ]),
  combination(COMBOS.auth, [WEBHOOK, { kind: 'action', provider: 'acme_crm', action: 'list_contacts', params: { url: '{{url}}' } }]),
];

/** The connections of the test: one Acme CRM account whose tokens the fixture server accepts or refuses. */
const crm = {
  connected: true,
  token: 'tok-1',
  refreshes: 0,
  lost: [] as Array<[number, string]>,
};
const fakeConnections = {
  providers: () => [{ provider: 'acme_crm', name: 'Acme CRM', sandbox: true }],
  list: async () => [{ id: 77, provider: 'acme_crm', authorization_status: crm.connected ? 'success' : null }],
  async accessToken(_managedUserId: number, provider: string) {
    if (!crm.connected) throw new NotConnectedError(provider, 'Acme CRM', 'disconnected by the user');
    return { token: crm.token, accountId: 'acct-9' };
  },
  async rejected() {
    crm.refreshes += 1;
    crm.token = `tok-${crm.refreshes + 1}`;
    return { token: crm.token, accountId: 'acct-9' };
  },
  async markLost(id: number, reason: string) {
    crm.lost.push([id, reason]);
    crm.connected = false;
  },
};

describe('typed engine steps (defineAction / defineTrigger)', () => {
  let server: TestServer;
  let user: TestUser;
  let site: http.Server;
  let origin = '';
  const received: Array<{ method: string; path: string; auth?: string; step?: string; body: string }> = [];
  let acceptedToken = 'tok-2';

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        received.push({ method: req.method!, path: req.url!, auth: req.headers.authorization, step: req.headers['x-step'] as string | undefined, body });
        if (req.url === '/crm') {
          const ok = req.headers.authorization === `Bearer ${acceptedToken}`;
          res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
          res.end(JSON.stringify(ok ? { contacts: [{ name: 'Ann' }, { name: 'Bo' }] } : { error: 'invalid_token' }));
          return;
        }
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ received: JSON.parse(body || 'null') }));
      });
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    server = await startTestServer({
      plugins: [typedPlugin],
      overrides: (c) => {
        const base = c.get<EngineOptions>(AutomationOptions);
        c.rebind<EngineOptions>(AutomationOptions).toConstantValue({ ...base, ...FAST, stepHttpAllowLoopback: true });
        c.rebind(Connections).toConstantValue(fakeConnections as never);
      },
    });
    for (const c of combos)
      await server.db
        .insertInto('combinations')
        .values({ id: c.id, ...combinationRow(c, 'typed-steps-test', false, new Date()) })
        .execute();
    user = await createUser(server);
  });
  afterAll(async () => {
    await server.close();
    site.closeAllConnections();
    await new Promise<void>((r) => site.close(() => r()));
  });
  beforeEach(() => {
    received.length = 0;
  });

  const webhook = async (combinationId: number, body: Record<string, unknown>) => {
    const rec = await recordOf(server, user, combinationId);
    const res = await server.call('POST', webhookPath(rec), { body });
    expect(res.status).toBe(200);
    return waitForJob(server, user, res.body.job_id);
  };

  it("shows each typed step's declared connection and settings (schema and the recipe's values) in the recipe view", async () => {
    const rec = await recordOf(server, user, COMBOS.auth);
    const res = await server.call('GET', `/api/automation/recipes/${rec.recipe_id}`, { token: user.access });
    expect(res.body.recipe.steps).toEqual([
      { index: 0, kind: 'trigger', provider: 'webhook', action: 'webhook_received', name: 'Webhook call', installed: true },
      {
        index: 1,
        kind: 'action',
        provider: 'acme_crm',
        action: 'list_contacts',
        name: 'List the CRM contacts',
        installed: true,
        auth: 'acme_crm',
        settings: { schema: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } }, values: { url: '{{url}}' } },
      },
    ]);
  });

  it('refuses to start a recipe whose settings do not fit the step schema, naming the step and the field', async () => {
    const rec = await recordOf(server, user, COMBOS.invalid);
    const res = await startRecipe(server, user, rec.recipe_id);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'error',
      message: 'The "Greet someone" step\'s settings are not valid: The setting "times" must be 3 or less.',
      step: 1,
      field: 'times',
    });
  });

  it('a push trigger from a plugin route: refused while stopped, checked against the payload schema, then runs with templated, validated settings and the plugin services', async () => {
    const push = (body: Record<string, unknown>) => server.call('POST', '/api/plugins/typed-steps-test/orders', { token: user.access, body });
    expect(await push({ order_id: 'A-1' })).toMatchObject({
      status: 409,
      body: { status: 'error', message: 'This workflow is stopped: start it, then try again.' },
    });

    const rec = await recordOf(server, user, COMBOS.push);
    expect((await startRecipe(server, user, rec.recipe_id)).status).toBe(200);
    expect(await push({ total: 3 })).toMatchObject({ status: 400, body: { status: 'error', message: 'The request needs an order_id: the order number.' } });

    const ok = await push({ order_id: 'A-1', name: 'Ann', count: 2, email: 'ann@example.com' });
    expect(ok.status).toBe(200);
    const { job, steps } = await waitForJob(server, user, ok.body.job_id);
    expect(job.status).toBe('succeeded');
    expect(job.trigger_summary).toBe('Started by a plugin with 4 fields');
    expect(steps.map((s) => [s.index, s.provider, s.action, s.name, s.status])).toEqual([
      [0, 'typed_test', 'order_placed', 'An order was placed', 'succeeded'],
      [1, 'typed_test', 'greet', 'Greet someone', 'succeeded'],
    ]);
    expect(steps[1].output).toEqual({ text: 'Hi Ann! Hi Ann!', to: 'ann@example.com', sign: 'the team', same_service: true, key: `${ok.body.job_id}:1` });

    // a value filled in at run time that breaks the schema fails the step at once, naming the field
    const bad = await push({ order_id: 'A-2', name: 'Bo', count: 1, email: 'not an address' });
    const failed = await waitForJob(server, user, bad.body.job_id);
    expect(failed.job.status).toBe('failed');
    expect(failed.steps[1].error).toBe('The "Greet someone" step\'s settings are not valid: The setting "to" must be a valid e-mail address.');
    expect(failed.steps[1].attempts).toBe(1);

    // a plugin may start only recipes of the trigger it names
    const wrong = await server.call('POST', '/api/plugins/typed-steps-test/wrong', { token: user.access, body: {} });
    expect(wrong).toMatchObject({
      status: 409,
      body: { status: 'error', message: 'This workflow starts from webhook:webhook_received, not typed_test:order_placed.' },
    });
  });

  it('a push brings only files of the recipe owner', async () => {
    const other = await createUser(server);
    const files = server.container.get(T.FileStore);
    const stored = await files.put(user.id, Buffer.from('order A-3\n'), { originalName: 'order.txt', allowed: ['txt'], maxBytes: 1_000_000 });
    const ref: FileRef = { bucket: stored.bucket, key: stored.key, name: 'order.txt', kind: stored.kind, size: stored.size };
    const body = { data: { order_id: 'A-3', name: 'Cy', count: 1 }, files: [ref] };

    const otherRec = await recordOf(server, other, COMBOS.push);
    expect((await startRecipe(server, other, otherRec.recipe_id)).status).toBe(200);
    const refused = await server.call('POST', '/api/plugins/typed-steps-test/orders-with-files', { token: other.access, body });
    expect(refused).toMatchObject({ status: 404, body: { status: 'error', message: 'The file was not found.' } });

    const mine = await recordOf(server, user, COMBOS.push);
    expect((await startRecipe(server, user, mine.recipe_id)).status).toBe(200);
    const ok = await server.call('POST', '/api/plugins/typed-steps-test/orders-with-files', { token: user.access, body });
    expect(ok.status).toBe(200);
    const { job, steps } = await waitForJob(server, user, ok.body.jobId);
    expect(job.status).toBe('succeeded');
    expect(job.trigger_summary).toBe('Started by a plugin with 3 fields and 1 file (order.txt)');
    expect(steps[0].output).toEqual({ source: 'push', data: { order_id: 'A-3', name: 'Cy', count: 1 }, files: [{ ...ref, kind: 'txt', size: 10 }] });
    expect(steps[1].output).toEqual({ text: 'Hi Cy!', to: null, sign: 'the team', same_service: true, key: `${ok.body.jobId}:1` });
  });

  it('POSTs JSON through the safe HTTP client, and refuses a private or metadata address for good', async () => {
    const rec = await recordOf(server, user, COMBOS.post);
    expect((await startRecipe(server, user, rec.recipe_id)).status).toBe(200);
    const { job, steps } = await webhook(COMBOS.post, { target: `${origin}/hook`, order_id: 'A-7', total: 12.5 });
    expect(job.status).toBe('succeeded');
    const sent = { note: 'order A-7 of 12.5', order: { target: `${origin}/hook`, order_id: 'A-7', total: 12.5 } };
    expect(steps[1].output).toEqual({ status: 201, answer: { received: sent } });
    expect(received.map((r) => ({ ...r, body: JSON.parse(r.body) }))).toEqual([
      { method: 'POST', path: '/hook', auth: undefined, step: 'post_out', body: sent },
    ]);

    received.length = 0;
    for (const [target, message] of [
      [
        'http://169.254.169.254/latest/meta-data/',
        'That address points to a cloud metadata service and cannot be read. (http://169.254.169.254/latest/meta-data/)',
      ],
      ['http://10.1.2.3/hook', 'That address points to a private network and cannot be read. (http://10.1.2.3/hook)'],
    ] as const) {
      const refused = await webhook(COMBOS.post, { target, order_id: 'A-8' });
      expect([refused.job.status, refused.steps[1].error, refused.steps[1].attempts]).toEqual(['failed', message, 1]);
    }
    expect(received).toEqual([]);
  });

  it('resolves the declared connection: its token is sent, a 401 refreshes once; refused again, the connection is marked lost and the step fails for good', async () => {
    const rec = await recordOf(server, user, COMBOS.auth);
    expect((await startRecipe(server, user, rec.recipe_id)).status).toBe(200);

    const first = await webhook(COMBOS.auth, { url: `${origin}/crm` });
    expect(first.job.status).toBe('succeeded');
    expect(first.steps[1].output).toEqual({ status: 200, answer: { contacts: [{ name: 'Ann' }, { name: 'Bo' }] }, account: 'acct-9' });
    expect(received.map((r) => [r.path, r.auth])).toEqual([
      ['/crm', 'Bearer tok-1'],
      ['/crm', 'Bearer tok-2'],
    ]);
    expect(crm.refreshes).toBe(1);

    // the grant is revoked at the provider: every token is refused
    received.length = 0;
    acceptedToken = 'none';
    const revoked = await webhook(COMBOS.auth, { url: `${origin}/crm` });
    expect(revoked.job.status).toBe('failed');
    expect(revoked.steps[1].error).toBe(
      'Acme CRM is not connected (it refused the access token (HTTP 401) even after a refresh): connect it in the connections tab, then try again.',
    );
    expect(revoked.steps[1].attempts).toBe(1);
    expect(received.map((r) => r.auth)).toEqual(['Bearer tok-2', 'Bearer tok-3']);
    expect(crm.lost).toEqual([[77, 'it refused the access token (HTTP 401) even after a refresh']]);

    // not connected: the step fails at once with the widget's advice, nothing is sent
    received.length = 0;
    const notConnected = await webhook(COMBOS.auth, { url: `${origin}/crm` });
    expect([notConnected.job.status, notConnected.steps[1].error, notConnected.steps[1].attempts]).toEqual([
      'failed',
      'Acme CRM is not connected (disconnected by the user): connect it in the connections tab, then try again.',
      1,
    ]);
    expect(received).toEqual([]);
  });
});
