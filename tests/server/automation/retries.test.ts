import { sql } from 'kysely';
import { createUser, type TestServer } from '../../support/server';
import { Automation, messageIdFor, retryDelayMs, withTimeout, StepTimeoutError } from '../../../src/server/automation';
import { queueRun } from '../../../src/server/automation/runner';
import * as T from '../../../src/server/tokens';
import { C, engineServer, probe, readyRecipe, sleep, waitForJob, webhookPath } from './support';

jest.setTimeout(40_000);

describe('backoff and time-out helpers', () => {
  it('doubles the wait each try, caps it, and jitters by ±25 %', () => {
    expect(retryDelayMs(1, 1000, 60_000, () => 0.5)).toBe(1000);
    expect(retryDelayMs(2, 1000, 60_000, () => 0.5)).toBe(2000);
    expect(retryDelayMs(3, 1000, 60_000, () => 0.5)).toBe(4000);
    expect(retryDelayMs(20, 1000, 60_000, () => 0.5)).toBe(60_000);
    expect(retryDelayMs(1, 1000, 60_000, () => 0)).toBe(750);
    expect(retryDelayMs(1, 1000, 60_000, () => 1)).toBe(1250);
  });

  it('aborts the signal and rejects with a readable error when the time is up', async () => {
    let aborted = false;
    await expect(
      withTimeout('Slow step', 30, (signal) => new Promise((r) => signal.addEventListener('abort', () => ((aborted = true), r(1))))),
    ).rejects.toThrow(new StepTimeoutError('Slow step', 30));
    expect(aborted).toBe(true);
    await expect(withTimeout('Quick', 1000, async () => 5)).resolves.toBe(5);
  });
});

describe('retries, resume, idempotent side effects, time-outs and the per-user limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await engineServer({ options: { userConcurrency: 2 } });
  });
  afterAll(() => server.close());
  beforeEach(() => probe.reset());

  it('retries a failing step with backoff and succeeds on its third try', async () => {
    const { user, rec } = await readyRecipe(server, C.flaky);
    const started = Date.now();
    const res = await server.call('POST', webhookPath(rec), { body: { name: 'Ada', order: { total: 3 } } });
    const { job, steps } = await waitForJob(server, user, res.body.job_id);
    expect(job.status).toBe('succeeded');
    expect(steps.map((s: any) => [s.status, s.attempts])).toEqual([
      ['succeeded', 1],
      ['succeeded', 1],
      ['succeeded', 3],
      ['succeeded', 1],
    ]);
    expect(steps[2].error).toBeNull();
    // two waits: about 20 ms and 40 ms (±25 %), then the DB queue's polling
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    const records = await server.db.selectFrom('automation_records').select('id').where('recipe_id', '=', rec.recipe_id).execute();
    expect(records).toHaveLength(1);
  });

  it('fails the job after the last try, e-mails the owner once an hour per recipe, and resumes from the failed step on retry', async () => {
    const { user, rec } = await readyRecipe(server, C.fails);
    const first = await server.call('POST', webhookPath(rec), { body: { name: 'Ada' } });
    const failed = await waitForJob(server, user, first.body.job_id);
    expect(failed.job.status).toBe('failed');
    expect(failed.job.error).toBe('Step 2 "Failing step" failed: the service is down (try 3)');
    expect(failed.steps.map((s: any) => [s.status, s.attempts])).toEqual([
      ['succeeded', 1],
      ['succeeded', 1],
      ['failed', 3],
      ['skipped', 0],
    ]);
    const mail = await server.mailer.waitFor(user.email);
    expect(mail.subject).toBe('Your workflow "Test recipe 9012" failed');
    expect(mail.text).toContain(`http://localhost:3000/solutions/combinations/workflow/${C.fails}?job=${first.body.job_id}`);
    expect(mail.text).toContain('the service is down (try 3)');

    const second = await server.call('POST', webhookPath(rec), { body: { name: 'Bob' } });
    await waitForJob(server, user, second.body.job_id);
    await sleep(300);
    expect(server.mailer.sent.filter((m) => m.to === user.email)).toHaveLength(1);
    const recipe = await server.call('GET', `/api/platform/proxy?url=api/managed_users/${user.workatoId}/recipes/${rec.recipe_id}`, { token: user.access });
    expect(recipe.body).toMatchObject({ job_failed_count: 2, job_succeeded_count: 0 });

    // the service is back: retry resumes at step 2, step 1's checkpoint is kept
    const transformDoneAt = failed.steps[1].completed_at;
    await server.db
      .updateTable('automation_steps')
      .set({ provider: 'flowmatic', action: 'transform', name: 'Transform the data' })
      .where('job_id', '=', first.body.job_id)
      .where('index', '=', 2)
      .execute();
    // (the failing action is swapped for a working one, as if the outage ended)
    await server.db
      .updateTable('combinations')
      .set({
        recipe: JSON.stringify({
          name: 'Test recipe 9012',
          description: 'x',
          steps: [
            { kind: 'trigger', provider: 'webhook', action: 'webhook_received' },
            { kind: 'action', provider: 'flowmatic', action: 'transform' },
            { kind: 'action', provider: 'flowmatic', action: 'transform' },
            { kind: 'action', provider: 'flowmatic', action: 'store_record' },
          ],
        }),
      })
      .where('id', '=', C.fails)
      .execute();
    const retried = await server.call('POST', `/api/automation/jobs/${first.body.job_id}/retry`, { token: user.access });
    expect(retried.status).toBe(200);
    expect(retried.body.job).toMatchObject({ attempt: 2, error: null });
    expect(['queued', 'running', 'succeeded']).toContain(retried.body.job.status);
    const done = await waitForJob(server, user, first.body.job_id);
    expect(done.job).toMatchObject({ status: 'succeeded', attempt: 2 });
    expect(done.steps[1]).toMatchObject({ status: 'succeeded', attempts: 1, completed_at: transformDoneAt });
    expect(done.steps[2]).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(done.steps[3]).toMatchObject({ status: 'succeeded' });
    // counted once, by its final state: the retried job is a success now, the other still a failure
    const after = await server.call('GET', `/api/platform/proxy?url=api/managed_users/${user.workatoId}/recipes/${rec.recipe_id}`, { token: user.access });
    expect(after.body).toMatchObject({ job_failed_count: 1, job_succeeded_count: 1 });
  });

  it('fails at once on a PermanentStepError, without using the remaining tries', async () => {
    const bad = await readyRecipe(server, C.email);
    const r2 = await server.call('POST', webhookPath(bad.rec), { body: { email: 'not an address', name: 'x', order: { total: 1 } } });
    const failed = await waitForJob(server, bad.user, r2.body.job_id);
    expect(failed.job.status).toBe('failed');
    expect(failed.steps[1]).toMatchObject({ status: 'failed', attempts: 1, error: 'The e-mail step needs a valid "to" address, got "not an address".' });
  });

  it('sends an e-mail step once: its Message-ID comes from the idempotency key, and a re-run step finds it sent', async () => {
    const { user, rec } = await readyRecipe(server, C.email);
    const res = await server.call('POST', webhookPath(rec), { body: { email: 'customer@example.com', name: 'Ada', order: { total: '42.00' } } });
    const { job, steps } = await waitForJob(server, user, res.body.job_id);
    expect(job.status).toBe('failed'); // the step after the e-mail keeps failing
    const mails = server.mailer.sent.filter((m) => m.to === 'customer@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: 'Hello Ada', text: 'Your order of 42.00 is in.', messageId: messageIdFor(`${job.id}:1`) });
    expect(steps[1]).toMatchObject({ status: 'succeeded', attempts: 1 });

    // a process that died after sending but before recording the step: the step runs again
    await server.db.updateTable('automation_steps').set({ status: 'pending', output: null }).where('job_id', '=', job.id).where('index', '=', 1).execute();
    await server.db.updateTable('automation_jobs').set({ status: 'running', lease_until: null, completed_at: null }).where('id', '=', job.id).execute();
    await queueRun(server.container.get(T.JobQueue), job.id);
    const again = await waitForJob(server, user, job.id);
    expect(again.steps[1]).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(again.steps[1].output_summary).toBe('E-mail already sent by an earlier try (not sent again): To customer@example.com, Subject Hello Ada');
    expect(server.mailer.sent.filter((m) => m.to === 'customer@example.com')).toHaveLength(1);
  });

  it('stops a step at its time-out and counts it as a failed try', async () => {
    const { user, rec } = await readyRecipe(server, C.slow);
    const res = await server.call('POST', webhookPath(rec), { body: {} });
    const { job, steps } = await waitForJob(server, user, res.body.job_id);
    expect(job.status).toBe('failed');
    expect(steps[1]).toMatchObject({ status: 'failed', attempts: 2, error: 'The step "Slow step" took longer than 100 ms and was stopped.' });
  });

  it('runs at most ENGINE_USER_CONCURRENCY jobs of one user at once; the others wait without holding a worker', async () => {
    const { user, rec } = await readyRecipe(server, C.block);
    const other = await readyRecipe(server, C.pipeline);
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await server.call('POST', webhookPath(rec), { body: { i } })).body.job_id);
    const deadline = Date.now() + 5000;
    while (probe.running < 2 && Date.now() < deadline) await sleep(20);
    await sleep(300);
    expect(probe.running).toBe(2);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from automation_jobs where managed_user_id = ${user.workatoId} and status = 'queued'`.execute(server.db);
    expect(rows[0].n).toBe(2);
    // another user is not held up by this one's full slots
    const res = await server.call('POST', webhookPath(other.rec), { body: { name: 'free' } });
    expect((await waitForJob(server, other.user, res.body.job_id)).job.status).toBe('succeeded');
    // releasing lets the waiting ones through, never more than two at once
    while (ids.length) {
      probe.release.splice(0).forEach((r) => r());
      const done = await server.db.selectFrom('automation_jobs').select('id').where('id', 'in', ids).where('status', '=', 'succeeded').execute();
      for (const d of done) ids.splice(ids.indexOf(d.id), 1);
      await sleep(30);
    }
    expect(probe.maxRunning).toBe(2);
  });

  it('keeps the engine service in the container', () => {
    expect(server.container.get(Automation).runner).toBeDefined();
  });
});

describe('a user with no managed workspace', () => {
  it('cannot reach the jobs API', async () => {
    const server = await engineServer();
    try {
      const u = await createUser(server);
      await server.db.deleteFrom('managed_users').where('id', '=', u.workatoId).execute();
      const res = await server.call('GET', '/api/automation/recipes/1/jobs', { token: u.access });
      expect(res.status).toBe(403);
    } finally {
      await server.close();
    }
  });
});
