import { sql } from 'kysely';
import { createUser, type TestServer } from '../../support/server';
import { C, engineServer, readyRecipe, recordOf, startRecipe, waitForJob, webhookPath, type Rec } from './support';

jest.setTimeout(30_000);

/**
 * A webhook that ran before is taken in one statement that checks the recipe afresh
 * (AutomationEngine.runKnownWebhook): whatever changed since, a call answers as the first did.
 */
describe('calls to a webhook that ran before', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await engineServer();
  });
  afterAll(() => server.close());

  const post = (rec: Rec, body: unknown) => server.call('POST', webhookPath(rec), { body });
  const stepsOf = (steps: any[]) => steps.map((s: any) => `${s.provider}:${s.action}`);

  it('runs later calls with the recipe as it is now', async () => {
    const { user, rec } = await readyRecipe(server, C.pipeline);
    const first = await post(rec, { name: 'one' });
    expect(first.status).toBe(200);
    await waitForJob(server, user, first.body.job_id);
    // a renamed recipe: the job carries the name it has now
    await server.db.updateTable('user_recipes').set({ name: 'Renamed' }).where('id', '=', rec.recipe_id).execute();
    const engine = server.container.get((await import('../../../src/server/automation')).Automation);
    const lookup = jest.spyOn(engine.recipes, 'webhookRecipe');
    const second = await post(rec, { name: 'two', order: { total: 3 } });
    expect(second.status).toBe(200);
    expect(lookup).not.toHaveBeenCalled(); // recorded in the one statement that checks the recipe
    lookup.mockRestore();
    const { job, steps } = await waitForJob(server, user, second.body.job_id);
    expect(job).toMatchObject({ status: 'succeeded', title: 'Renamed', trigger_summary: 'Webhook call with 2 fields', attempt: 1 });
    expect(stepsOf(steps)).toEqual(['webhook:webhook_received', 'flowmatic:transform', 'flowmatic:store_record']);
    expect(steps[1].output_summary).toContain('customer two');
    const counts = await server.call('GET', `/api/platform/proxy?url=api/managed_users/${user.workatoId}/recipes/${rec.recipe_id}`, { token: user.access });
    expect(counts.body).toMatchObject({ job_succeeded_count: 2, job_failed_count: 0 });
  });

  it('refuses a call once the recipe stopped, and runs it again once started', async () => {
    const { user, rec } = await readyRecipe(server, C.pipeline);
    await waitForJob(server, user, (await post(rec, { name: 'a' })).body.job_id);
    await startRecipe(server, user, rec.recipe_id, 'stop');
    const stopped = await post(rec, { name: 'b' });
    expect(stopped.status).toBe(409);
    expect(stopped.body).toEqual({ status: 'error', message: 'This workflow is stopped: start it, then try again.' });
    // a body refused as before, whatever the order of the checks
    expect((await post(rec, [1, 2])).status).toBe(409);
    await startRecipe(server, user, rec.recipe_id);
    expect((await post(rec, [1, 2])).status).toBe(400);
    const again = await post(rec, { name: 'c' });
    expect(again.status).toBe(200);
    expect((await waitForJob(server, user, again.body.job_id)).job.status).toBe('succeeded');
  });

  it("follows a change of the combination's recipe, a missing step included", async () => {
    const { user, rec } = await readyRecipe(server, C.plain);
    await waitForJob(server, user, (await post(rec, { a: 1 })).body.job_id);
    const recipeOf = async () => (await sql<{ recipe: unknown }>`select recipe from combinations where id = ${C.plain}`.execute(server.db)).rows[0].recipe;
    const original = await recipeOf();
    const template = typeof original === 'string' ? JSON.parse(original) : (original as { steps: unknown[] });
    try {
      const withTransform = {
        ...template,
        steps: [template.steps[0], { kind: 'action', provider: 'flowmatic', action: 'transform', params: { map: { who: 'a' } } }, ...template.steps.slice(1)],
      };
      await sql`update combinations set recipe = cast(${JSON.stringify(withTransform)} as jsonb) where id = ${C.plain}`.execute(server.db);
      const changed = await post(rec, { a: 2 });
      const { job, steps } = await waitForJob(server, user, changed.body.job_id);
      expect(job.status).toBe('succeeded');
      expect(stepsOf(steps)).toEqual(['webhook:webhook_received', 'flowmatic:transform', 'flowmatic:store_record']);
      // a later call runs the new steps too (now remembered)
      const next = await post(rec, { a: 3 });
      expect(stepsOf((await waitForJob(server, user, next.body.job_id)).steps)).toHaveLength(3);
      // a step nobody provides: refused with a failed job, as on a first call
      const missing = { ...template, steps: [template.steps[0], { kind: 'action', provider: 'acme', action: 'does_not_exist' }] };
      await sql`update combinations set recipe = cast(${JSON.stringify(missing)} as jsonb) where id = ${C.plain}`.execute(server.db);
      const refused = await post(rec, { a: 4 });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/^Connector not found\. .*acme:does_not_exist/);
      expect((await waitForJob(server, user, refused.body.job_id)).job.status).toBe('failed');
    } finally {
      await sql`update combinations set recipe = cast(${JSON.stringify(template)} as jsonb) where id = ${C.plain}`.execute(server.db);
    }
  });

  it('takes files, setup calls and unknown tokens as before', async () => {
    const { user, rec } = await readyRecipe(server, C.plain);
    await waitForJob(server, user, (await post(rec, { a: 1 })).body.job_id);
    const withFile = await post(rec, { name: 'notes.txt', binary: Buffer.from('hello').toString('base64') });
    expect(withFile.status).toBe(200);
    expect((await waitForJob(server, user, withFile.body.job_id)).job.trigger_summary).toBe('Webhook call with 1 field and 1 file (notes.txt)');
    const setup = await post(rec, { customer_id: 1, email: 'a@b.co', instance: 'x', recipe_id: rec.recipe_id, combination_id: C.plain });
    expect(setup.status).toBe(200);
    expect(setup.body).toEqual({ status: 'ok' });
    // another user's records are their own; a token that no longer belongs to a recipe is unknown
    const other = await recordOf(server, await createUser(server), C.plain);
    expect(other.workato_webhook).not.toBe(rec.workato_webhook);
    await server.db
      .updateTable('user_recipes')
      .set({ webhook_token: 'f'.repeat(64) })
      .where('id', '=', rec.recipe_id)
      .execute();
    expect((await post(rec, { a: 5 })).status).toBe(404);
  });
});
