/**
 * Issue 22: a step's settings edited on the setup screen (PUT /api/automation/recipes/:id/steps/
 * :stepIndex/settings: checked against the step's schema, stored with the owner's recipe only,
 * refused while the recipe runs and for another user's recipe), and the declared input and output
 * schemas checked around each run of a typed step (a mismatch fails the step at once, naming it
 * and the field).
 */
import { defineAction, defineServerPlugin } from '../../../src/server';
import { type CombinationSeed } from '../../../src/core/wire-types';
import { AutomationOptions, type EngineOptions } from '../../../src/server/automation';
import { combinationRow } from '../../../src/server/catalogue/seed';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { combination, FAST, recordOf, startRecipe, waitForJob, webhookPath } from './support';

jest.setTimeout(60_000);

const COMBOS = { post: 9201, output: 9202, input: 9203 } as const;

const postSettings = {
  type: 'object',
  required: ['channel', 'text'],
  additionalProperties: false,
  properties: {
    channel: { type: 'string', title: 'Channel', minLength: 1, maxLength: 80 },
    text: { type: 'string', title: 'Message' },
    times: { type: 'integer', minimum: 1, maximum: 3, default: 1 },
  },
};

const plugin = defineServerPlugin({
  id: 'step-settings-test',
  steps: () => [
    defineAction<{ channel: string; text: string; times: number }>({
      provider: 'chat_test',
      action: 'post_message',
      title: 'Post a chat message',
      settings: postSettings,
      output: {
        type: 'object',
        required: ['channel', 'messages'],
        properties: { channel: { type: 'string' }, messages: { type: 'array', items: { type: 'string' } } },
      },
      async run(_input, ctx) {
        return { channel: ctx.settings.channel, messages: Array.from({ length: ctx.settings.times }, () => ctx.settings.text) };
      },
    }),
    // declares a row number it does not produce
    defineAction({
      provider: 'sheet_test',
      action: 'add_row',
      title: 'Add a row to the test sheet',
      output: { type: 'object', required: ['row_number'], properties: { row_number: { type: 'integer' } } },
      async run() {
        return { range: 'Sheet1!A2:C2' };
      },
    }),
    defineAction({
      provider: 'sheet_test',
      action: 'total_of',
      title: 'Read the order total',
      async run(input) {
        return { total: (input as { data: { total: unknown } }).data.total };
      },
    }),
    defineAction({
      provider: 'sheet_test',
      action: 'book_total',
      title: 'Book the total',
      input: { type: 'object', required: ['total'], properties: { total: { type: 'number' } } },
      async run(input) {
        return { booked: (input as { total: number }).total };
      },
    }),
  ],
});

const WEBHOOK = { kind: 'trigger', provider: 'webhook', action: 'webhook_received' } as const;
const combos: CombinationSeed[] = [
  combination(COMBOS.post, [WEBHOOK, { kind: 'action', provider: 'chat_test', action: 'post_message', params: { channel: '#general', text: 'Hello' } }]),
  combination(COMBOS.output, [WEBHOOK, { kind: 'action', provider: 'sheet_test', action: 'add_row' }]),
  combination(COMBOS.input, [
    WEBHOOK,
    { kind: 'action', provider: 'sheet_test', action: 'total_of' },
    { kind: 'action', provider: 'sheet_test', action: 'book_total' },
  ]),
];

describe('step settings from the setup screen, and the declared input and output checked at run time', () => {
  let server: TestServer;
  let user: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    server = await startTestServer({
      plugins: [plugin],
      overrides: (c) => {
        const base = c.get<EngineOptions>(AutomationOptions);
        c.rebind<EngineOptions>(AutomationOptions).toConstantValue({ ...base, ...FAST });
      },
    });
    for (const c of combos)
      await server.db
        .insertInto('combinations')
        .values({ id: c.id, ...combinationRow(c, 'step-settings-test', false, new Date()) })
        .execute();
    user = await createUser(server);
    other = await createUser(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const settingsPath = (recipeId: number, step: number | string) => `/api/automation/recipes/${recipeId}/steps/${step}/settings`;
  const stepsOf = async (who: TestUser, recipeId: number) => {
    const res = await server.call('GET', `/api/automation/recipes/${recipeId}`, { token: who.access });
    expect(res.status).toBe(200);
    return res.body.recipe.steps;
  };
  const webhook = async (who: TestUser, combinationId: number, body: Record<string, unknown>) => {
    const rec = await recordOf(server, who, combinationId);
    const res = await server.call('POST', webhookPath(rec), { body });
    expect(res.status).toBe(200);
    return waitForJob(server, who, res.body.job_id);
  };

  it("stores valid settings with the owner's recipe, reads them back exactly and runs with them; other users keep the template's", async () => {
    const rec = await recordOf(server, user, COMBOS.post);
    const values = { channel: '#sales', text: 'New order {{order_id}}', times: 2 };
    const saved = await server.call('PUT', settingsPath(rec.recipe_id, 1), { token: user.access, body: values });
    expect(saved).toMatchObject({ status: 200, body: { status: 'ok', settings: { schema: postSettings, values } } });
    expect(Object.keys(saved.body)).toEqual(['status', 'settings']);

    expect((await stepsOf(user, rec.recipe_id))[1]).toEqual({
      index: 1,
      kind: 'action',
      provider: 'chat_test',
      action: 'post_message',
      name: 'Post a chat message',
      installed: true,
      settings: { schema: postSettings, values },
    });
    // the combination's template is shared: another user's recipe keeps its values
    const theirs = await recordOf(server, other, COMBOS.post);
    expect((await stepsOf(other, theirs.recipe_id))[1].settings.values).toEqual({ channel: '#general', text: 'Hello' });

    expect((await startRecipe(server, user, rec.recipe_id)).status).toBe(200);
    const { job, steps } = await webhook(user, COMBOS.post, { order_id: 'A-12' });
    expect(job.status).toBe('succeeded');
    expect(steps[1].output).toEqual({ channel: '#sales', messages: ['New order A-12', 'New order A-12'] });

    expect((await startRecipe(server, other, theirs.recipe_id)).status).toBe(200);
    const theirRun = await webhook(other, COMBOS.post, { order_id: 'B-1' });
    expect(theirRun.steps[1].output).toEqual({ channel: '#general', messages: ['Hello'] });
    expect((await startRecipe(server, other, theirs.recipe_id, 'stop')).status).toBe(200);
  });

  it('refuses while the recipe runs (409), then refuses settings that break the schema (400 in plain words) and keeps the saved ones', async () => {
    const rec = await recordOf(server, user, COMBOS.post);
    expect((await startRecipe(server, user, rec.recipe_id)).status).toBe(200);
    const running = await server.call('PUT', settingsPath(rec.recipe_id, 1), { token: user.access, body: { channel: '#ops', text: 'Hi' } });
    expect(running).toEqual(
      expect.objectContaining({
        status: 409,
        body: { status: 'error', message: 'This workflow is running: stop it first, then change the settings of its steps.' },
      }),
    );
    expect((await startRecipe(server, user, rec.recipe_id, 'stop')).status).toBe(200);

    const cases: Array<[unknown, string, string]> = [
      [{ channel: 'c'.repeat(81), text: 'Hi' }, 'The channel must be at most 80 characters long.', 'channel'],
      [{ channel: '#ops' }, 'The message is required.', 'text'],
      [{ channel: '#ops', text: 'Hi', times: 4 }, 'The times must be 3 or less.', 'times'],
      [{ channel: '#ops', text: 'Hi', colour: 'red' }, 'This step has no setting called colour.', 'colour'],
      [{ channel: 42, text: 'Hi' }, 'The channel must be text.', 'channel'],
    ];
    for (const [body, message, field] of cases) {
      const res = await server.call('PUT', settingsPath(rec.recipe_id, 1), { token: user.access, body });
      expect([res.status, res.body]).toEqual([400, { status: 'error', message, step: 1, field }]);
    }
    const notObject = await server.call('PUT', settingsPath(rec.recipe_id, 1), { token: user.access, body: ['#ops'] });
    expect([notObject.status, notObject.body]).toEqual([400, { status: 'error', message: 'The settings must be a set of named values.', step: 1, field: '' }]);

    // a step with no settings, a step the recipe does not have, a step number that is not one
    const trigger = await server.call('PUT', settingsPath(rec.recipe_id, 0), { token: user.access, body: {} });
    expect([trigger.status, trigger.body]).toEqual([400, { status: 'error', message: 'The step "Webhook call" has no settings to change.' }]);
    const missing = await server.call('PUT', settingsPath(rec.recipe_id, 7), { token: user.access, body: {} });
    expect([missing.status, missing.body]).toEqual([404, { status: 'error', message: 'This workflow has no such step.' }]);
    const word = await server.call('PUT', settingsPath(rec.recipe_id, 'first'), { token: user.access, body: {} });
    expect([word.status, word.body]).toEqual([400, { status: 'error', message: 'The step number must be a whole number.' }]);

    expect((await stepsOf(user, rec.recipe_id))[1].settings.values).toEqual({ channel: '#sales', text: 'New order {{order_id}}', times: 2 });
  });

  it("answers another user's recipe as not found, exactly as the recipe view does, and changes nothing", async () => {
    const theirs = await recordOf(server, other, COMBOS.post);
    const view = await server.call('GET', `/api/automation/recipes/${theirs.recipe_id}`, { token: user.access });
    const put = await server.call('PUT', settingsPath(theirs.recipe_id, 1), { token: user.access, body: { channel: '#stolen', text: 'x' } });
    expect([view.status, view.body]).toEqual([404, { status: 'error', message: 'Recipe not found.' }]);
    expect([put.status, put.body]).toEqual([404, { status: 'error', message: 'Recipe not found.' }]);
    expect((await stepsOf(other, theirs.recipe_id))[1].settings.values).toEqual({ channel: '#general', text: 'Hello' });
    const anonymous = await server.call('PUT', settingsPath(theirs.recipe_id, 1), { body: { channel: '#x', text: 'x' } });
    expect(anonymous.status).toBe(401);
  });

  it('fails a step for good when its output lacks a declared field, naming the step and the field', async () => {
    const rec = await recordOf(server, user, COMBOS.output);
    expect((await startRecipe(server, user, rec.recipe_id)).status).toBe(200);
    const { job, steps } = await webhook(user, COMBOS.output, { order_id: 'A-1' });
    expect(job.status).toBe('failed');
    expect([steps[1].status, steps[1].error, steps[1].attempts]).toEqual(['failed', 'The "Add a row to the test sheet" step produced no row number.', 1]);
    expect(job.error).toBe('Step 1 "Add a row to the test sheet" failed: The "Add a row to the test sheet" step produced no row number.');
  });

  it('fails a step for good before it runs when its input breaks its declared input schema', async () => {
    const rec = await recordOf(server, user, COMBOS.input);
    expect((await startRecipe(server, user, rec.recipe_id)).status).toBe(200);
    const bad = await webhook(user, COMBOS.input, { total: 'twelve' });
    expect(bad.job.status).toBe('failed');
    expect(bad.steps.map((s) => [s.index, s.status, s.error, s.attempts])).toEqual([
      [0, 'succeeded', null, expect.any(Number)],
      [1, 'succeeded', null, 1],
      [2, 'failed', 'The "Book the total" step received an unusable input: the total must be a number.', 1],
    ]);
    const none = await webhook(user, COMBOS.input, {});
    expect(none.steps[2].error).toBe('The "Book the total" step received no total from the step before it.');
    const good = await webhook(user, COMBOS.input, { total: 12.5 });
    expect(good.job.status).toBe('succeeded');
    expect(good.steps[2].output).toEqual({ booked: 12.5 });
  });
});
