import { createUser, type TestServer, type TestUser } from '../../support/server';
import { C, engineServer, readyRecipe, recordOf, startRecipe, waitForJob, webhookPath } from './support';

jest.setTimeout(30_000);

describe('recipes that run: webhook → transform → store a record', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await engineServer();
  });
  afterAll(() => server.close());

  it('gives every user one record per enabled combination plus the starter, each with its own webhook', async () => {
    const user = await createUser(server);
    const res = await server.call('GET', `/api/platform/userByWorkatoRecipe/${user.workatoId}/`, { token: user.access });
    const records = res.body.workato_recipes;
    const combos = records.map((r: any) => r.combination).sort((a: number, b: number) => a - b);
    expect(combos).toEqual([0, ...Object.values(C)].sort((a, b) => a - b));
    const hooks = new Set(records.map((r: any) => r.workato_webhook));
    expect(hooks.size).toBe(records.length);
    for (const r of records) {
      expect(r.workato_webhook).toMatch(/^http:\/\/localhost:3000\/api\/automation\/webhooks\/[0-9a-f]{64}$/);
      expect(r.status).toBe('no started');
    }
    expect(records.find((r: any) => r.combination === 0).name).toBe('Starter recipe');
    // a second read creates nothing more
    const again = await server.call('GET', `/api/platform/userByWorkatoRecipe/${user.workatoId}/`, { token: user.access });
    expect(again.body.workato_recipes).toHaveLength(records.length);
  });

  it('backfills users that have no records in one batch, leaving existing ones alone', async () => {
    const a = await createUser(server);
    const b = await createUser(server);
    const engine = server.container.get((await import('../../../src/server/automation')).Automation);
    const created = await engine.recipes.backfill();
    expect(created).toBeGreaterThanOrEqual(2 * (Object.keys(C).length + 1));
    expect(await engine.recipes.backfill()).toBe(0);
    for (const u of [a, b]) {
      const rows = await server.db.selectFrom('user_recipes').select('id').where('managed_user_id', '=', u.workatoId).execute();
      expect(rows).toHaveLength(Object.keys(C).length + 1);
    }
  });

  it('runs a posted JSON body through every step and answers 200 with the job id', async () => {
    const { user, rec } = await readyRecipe(server, C.pipeline);
    const events: any[] = [];
    const sub = server.container
      .get((await import('../../../src/server/tokens')).EventBus)
      .on('job/status-changed')
      .subscribe((e) => events.push(e));
    const res = await server.call('POST', webhookPath(rec), { body: { name: 'Ada', order: { total: 120.5 }, note: 'x'.repeat(5000) } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', job_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const { job, steps } = await waitForJob(server, user, res.body.job_id);
    sub.unsubscribe();
    expect(job).toMatchObject({ status: 'succeeded', title: 'Test recipe 9001', attempt: 1, error: null });
    expect(job.duration_ms).toBeGreaterThanOrEqual(0);
    expect(job.trigger_summary).toBe('Webhook call with 3 fields');
    expect(steps.map((s: any) => [s.index, `${s.provider}:${s.action}`, s.status, s.attempts])).toEqual([
      [0, 'webhook:webhook_received', 'succeeded', 1],
      [1, 'flowmatic:transform', 'succeeded', 1],
      [2, 'flowmatic:store_record', 'succeeded', 1],
    ]);
    expect(steps[1].name).toBe('Transform the data');
    // (the transform's fields in the order of its map as the catalogue keeps it)
    expect(steps[1].output_summary).toBe('Output: total 120.5, customer Ada, source test');
    expect(steps[1].output_details).toEqual([
      {
        title: 'Output',
        items: [
          { label: 'total', value: '120.5' },
          { label: 'customer', value: 'Ada' },
          { label: 'source', value: 'test' },
        ],
      },
    ]);
    // summaries are short and never carry big values
    for (const s of steps) {
      expect((s.input_summary ?? '').length).toBeLessThanOrEqual(240);
      expect(s.input_summary ?? '').not.toContain('xxxxxxxxxx');
    }
    expect(steps[1].input_summary).toContain('note text of 5000 characters');
    const stored = await server.db.selectFrom('automation_records').selectAll().where('recipe_id', '=', rec.recipe_id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].data).toEqual({ customer: 'Ada', total: 120.5, source: 'test' });
    expect(events.filter((e) => e.jobId === job.id).map((e) => e.status)).toEqual(['queued', 'running', 'succeeded']);
    const recipe = await server.call('GET', `/api/platform/proxy?url=api/managed_users/${user.workatoId}/recipes/${rec.recipe_id}`, { token: user.access });
    expect(recipe.body).toEqual({ id: rec.recipe_id, running: true, job_succeeded_count: 1, job_failed_count: 0 });
  });

  it("takes multipart bodies: files go to the owner's file store, the steps see references", async () => {
    const { user, rec } = await readyRecipe(server, C.plain);
    const boundary = '----engineTest';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="email"',
      '',
      'ada@example.com',
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="orders.csv"',
      'Content-Type: text/csv',
      '',
      'id,total\n1,10\n2,20\n',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const res = await server.app.inject({
      method: 'POST',
      url: webhookPath(rec),
      payload: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(200);
    const { job, steps } = await waitForJob(server, user, res.json().job_id);
    expect(job.status).toBe('succeeded');
    expect(job.trigger_summary).toBe('Webhook call with 1 field and 1 file (orders.csv)');
    const row = await server.db.selectFrom('automation_jobs').select('trigger_payload').where('id', '=', job.id).executeTakeFirstOrThrow();
    const file = row.trigger_payload.files[0];
    expect(file).toMatchObject({ bucket: 'automation', name: 'orders.csv', kind: 'csv' });
    const { FileStore } = await import('../../../src/server/tokens');
    expect((await server.container.get(FileStore).read(user.id, file.bucket, file.key)).toString()).toContain('1,10');
    expect(steps[0].output_summary).not.toContain('1,10');
  });

  it('turns base64 "binary" JSON fields into stored files', async () => {
    const { user, rec } = await readyRecipe(server, C.plain);
    const res = await server.call('POST', webhookPath(rec), {
      body: { email: 'a@b.co', name: 'notes.txt', binary: Buffer.from('hello there').toString('base64') },
    });
    expect(res.status).toBe(200);
    const { job } = await waitForJob(server, user, res.body.job_id);
    expect(job.trigger_summary).toBe('Webhook call with 2 fields and 1 file (notes.txt)');
    const bad = await server.call('POST', webhookPath(rec), { body: { binary: 'not base64 !!' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('The binary must be a file encoded in base64.');
  });

  it('refuses a stopped recipe, an unknown token and a non-object body', async () => {
    const user = await createUser(server);
    const rec = await recordOf(server, user, C.pipeline);
    const stopped = await server.call('POST', webhookPath(rec), { body: { a: 1 } });
    expect(stopped.status).toBe(409);
    expect(stopped.body).toEqual({ status: 'error', message: 'This workflow is stopped: start it, then try again.' });
    expect((await server.call('POST', '/api/automation/webhooks/' + 'a'.repeat(64), { body: {} })).status).toBe(404);
    expect((await server.call('POST', '/api/automation/webhooks/nope', { body: {} })).status).toBe(404);
    await startRecipe(server, user, rec.recipe_id);
    const arr = await server.call('POST', webhookPath(rec), { body: [1, 2] });
    expect(arr.status).toBe(400);
    // stopping refuses calls again
    expect((await startRecipe(server, user, rec.recipe_id, 'stop')).body).toEqual({ success: true, running: false });
    expect((await server.call('POST', webhookPath(rec), { body: { a: 1 } })).status).toBe(409);
  });

  it("answers 'Connector not found.' for a step no plugin provides, on start and on a run", async () => {
    const user = await createUser(server);
    const rec = await recordOf(server, user, C.missing);
    const start = await startRecipe(server, user, rec.recipe_id);
    expect(start.status).toBe(409);
    expect(start.body.message).toBe('Connector not found. This workflow needs acme:does_not_exist, which is not installed.');
    // force it running to show a run fails the same way, with a failed job record
    await server.db.updateTable('user_recipes').set({ running: true }).where('id', '=', rec.recipe_id).execute();
    const run = await server.call('POST', webhookPath(rec), { body: { a: 1 } });
    expect(run.status).toBe(409);
    expect(run.body.message).toMatch(/^Connector not found\. .*acme:does_not_exist/);
    const { job, steps } = await waitForJob(server, user, run.body.job_id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^Connector not found\./);
    expect(steps.map((s: any) => s.status)).toEqual(['succeeded', 'failed', 'skipped']);
    const view = await server.call('GET', `/api/automation/recipes/${rec.recipe_id}`, { token: user.access });
    expect(view.body.recipe.steps.map((s: any) => s.installed)).toEqual([true, false, true]);
    expect(view.body.recipe.inbound_email).toMatch(/^recipe-[0-9a-f]{32}@inbound\.localhost$/);
  });

  it('runs an action contributed by a dropped-in plugin, with no engine edit', async () => {
    const { user, rec } = await readyRecipe(server, C.dropIn);
    // its trigger is an upload: the call brings a file (without one it is a 400 naming the field)
    const none = await server.call('POST', webhookPath(rec), { body: { name: 'grace' } });
    expect([none.status, none.body.message]).toEqual([
      400,
      'The request needs a file: binary, the document in base64 (a PDF, PNG or JPEG; an invoice recipe also takes an XML e-invoice), or a file part of a multipart form.',
    ]);
    const res = await server.call('POST', webhookPath(rec), { body: { name: 'grace', binary: Buffer.from('grace').toString('base64') } });
    const { job, steps } = await waitForJob(server, user, res.body.job_id);
    expect(job.status).toBe('succeeded');
    expect(steps.map((s: any) => `${s.provider}:${s.action}`)).toEqual(['manual_upload:file_uploaded', 'acme_ai:shout']);
    expect(steps[1]).toMatchObject({ name: 'Shout the name', output_summary: 'Output: shout GRACE!' });
  });

  describe('the jobs API', () => {
    let owner: TestUser;
    let other: TestUser;
    let recipeId: number;
    const jobIds: string[] = [];

    beforeAll(async () => {
      const { user, rec } = await readyRecipe(server, C.pipeline);
      owner = user;
      recipeId = rec.recipe_id;
      other = await createUser(server);
      for (const n of [1, 2, 3]) {
        const res = await server.call('POST', webhookPath(rec), { body: { name: `n${n}` } });
        jobIds.push(res.body.job_id);
        await waitForJob(server, owner, res.body.job_id);
      }
    });

    it("lists a recipe's jobs newest first, with a limit", async () => {
      const res = await server.call('GET', `/api/automation/recipes/${recipeId}/jobs`, { token: owner.access });
      expect(res.status).toBe(200);
      expect(res.body.jobs.map((j: any) => j.id)).toEqual([...jobIds].reverse());
      expect(Object.keys(res.body.jobs[0]).sort()).toEqual(
        [
          'attempt',
          'combination_id',
          'completed_at',
          'created_at',
          'duration_ms',
          'error',
          'id',
          'recipe_id',
          'started_at',
          'status',
          'title',
          'trigger_summary',
        ].sort(),
      );
      const limited = await server.call('GET', `/api/automation/recipes/${recipeId}/jobs?limit=1`, { token: owner.access });
      expect(limited.body.jobs).toHaveLength(1);
      expect((await server.call('GET', `/api/automation/recipes/${recipeId}/jobs?limit=500`, { token: owner.access })).status).toBe(400);
    });

    it("answers 404 for another user's recipe or job, and 401 without a login", async () => {
      expect((await server.call('GET', `/api/automation/recipes/${recipeId}/jobs`, { token: other.access })).status).toBe(404);
      expect((await server.call('GET', `/api/automation/jobs/${jobIds[0]}`, { token: other.access })).status).toBe(404);
      expect((await server.call('POST', `/api/automation/jobs/${jobIds[0]}/rerun`, { token: other.access })).status).toBe(404);
      expect((await server.call('GET', `/api/automation/jobs/not-a-uuid`, { token: owner.access })).status).toBe(404);
      expect((await server.call('GET', `/api/automation/jobs/${jobIds[0]}`)).status).toBe(401);
    });

    it('runs a job again with the same trigger payload', async () => {
      const res = await server.call('POST', `/api/automation/jobs/${jobIds[0]}/rerun`, { token: owner.access });
      expect(res.status).toBe(200);
      const { job, steps } = await waitForJob(server, owner, res.body.job_id);
      expect(job.status).toBe('succeeded');
      expect(job.trigger_summary).toBe('Run again: Webhook call with 1 field');
      expect(steps[1].output_summary).toContain('customer n1');
      // a succeeded job cannot be retried
      expect((await server.call('POST', `/api/automation/jobs/${jobIds[0]}/retry`, { token: owner.access })).status).toBe(409);
    });
  });
});
