import { sql } from 'kysely';
import { RunRollup } from '../../../plugins/monitoring/rollup';
import * as T from '../../../src/server/tokens';
import { FinishedJobs } from '../../../src/server/automation';
import { createUser, type TestServer, type TestUser } from '../../support/server';
import { C, readyRecipe, sleep, waitForJob, webhookPath } from '../automation/support';
import { TIMED, dayAgo, metrics, monitoringServer, seedJob } from './support';

jest.setTimeout(60_000);

const PATH = '/api/platform/monitoringData';
const WORKFLOW = 9000; // the engine test combinations' workflow (no minutes_per_run: 5)

describe("GET /api/platform/monitoringData: the caller's daily runs from the roll-up", () => {
  let server: TestServer;
  let rollup: RunRollup;
  beforeAll(async () => {
    server = await monitoringServer();
    rollup = new RunRollup(server.db, server.container.get(FinishedJobs));
  });
  afterAll(() => server.close());

  const data = (user: TestUser, query: string) => server.call('GET', `${PATH}?${query}`, { token: user.access });

  /** Polls until today's record of the workflow has `runs` runs (the count follows the event). */
  async function waitForRuns(user: TestUser, workflow: number, runs: number) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await data(user, `client_id=x&datasource=${workflow}&period=1`);
      const today = metrics(res.body[res.body.length - 1]);
      if (today.SUCCEEDED + today.FAILED >= runs) return res.body;
      if (Date.now() > deadline) throw new Error(`today has ${JSON.stringify(today)}, not ${runs} runs`);
      await sleep(50);
    }
  }

  it('counts real engine runs as they finish: one succeeded, one failed, today', async () => {
    const { user, rec } = await readyRecipe(server, C.pipeline);
    const ok = await server.call('POST', webhookPath(rec), {
      body: { name: 'Ada', order: { total: 3 } },
    });
    expect((await waitForJob(server, user, ok.body.job_id)).job.status).toBe('succeeded');
    const failing = await readyRecipe(server, C.fails, user);
    const bad = await server.call('POST', webhookPath(failing.rec), {
      body: { name: 'Bob' },
    });
    expect((await waitForJob(server, user, bad.body.job_id)).job.status).toBe('failed');
    const records = await waitForRuns(user, WORKFLOW, 2);
    expect(records).toHaveLength(7);
    expect(records[6]).toEqual({
      Id: 7,
      Cilent_id: user.id,
      Data_source: WORKFLOW,
      Type: [
        { type: 'FAILED', value: 1 },
        { type: 'SUCCEEDED', value: 1 },
        { type: 'success_rate', value: 50 },
        { type: 'time_cost_unit_min', value: 5 },
      ],
      Date: dayAgo(0),
    });
    // the engine's events again, and a backfill, count nothing twice
    const bus = server.container.get(T.EventBus);
    bus.publish('job/status-changed', {
      jobId: ok.body.job_id,
      status: 'succeeded',
    });
    expect(await rollup.count(bad.body.job_id)).toBe('already-counted');
    expect(await rollup.backfill()).toBe(0);
    await sleep(100);
    expect(metrics((await waitForRuns(user, WORKFLOW, 2))[6])).toMatchObject({
      SUCCEEDED: 1,
      FAILED: 1,
    });
  });

  it('aggregates several days and both statuses, with zeros on days without runs, in the section-3 shape', async () => {
    const user = await createUser(server);
    const seeded = [
      await seedJob(server, user, C.pipeline, 'succeeded', 0),
      await seedJob(server, user, C.pipeline, 'succeeded', 0),
      await seedJob(server, user, C.plain, 'failed', 0), // another combination of the same workflow
      await seedJob(server, user, C.pipeline, 'succeeded', 3),
      await seedJob(server, user, C.pipeline, 'failed', 3),
      await seedJob(server, user, C.pipeline, 'failed', 3),
      await seedJob(server, user, C.pipeline, 'succeeded', 13),
      await seedJob(server, user, C.pipeline, 'failed', 14), // outside a 2-week window
    ];
    for (const id of seeded) expect(await rollup.count(id)).toBe('counted');
    const res = await data(user, 'client_id=someone-else&datasource=9000&period=2');
    expect(res.status).toBe(200);
    const records = res.body as any[];
    expect(records).toHaveLength(14);
    expect(records.map((r) => r.Date)).toEqual(Array.from({ length: 14 }, (_, i) => dayAgo(13 - i)));
    expect(records.map((r) => r.Id)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    for (const r of records) {
      expect(Object.keys(r)).toEqual(['Id', 'Cilent_id', 'Data_source', 'Type', 'Date']);
      expect(r.Cilent_id).toBe(user.id);
      expect(r.Data_source).toBe(9000);
      expect(r.Type.map((t: any) => t.type)).toEqual(['FAILED', 'SUCCEEDED', 'success_rate', 'time_cost_unit_min']);
      expect(r.Date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const byDay = Object.fromEntries(records.map((r) => [r.Date, metrics(r)]));
    expect(byDay[dayAgo(0)]).toEqual({
      FAILED: 1,
      SUCCEEDED: 2,
      success_rate: 66.7,
      time_cost_unit_min: 10,
    });
    expect(byDay[dayAgo(3)]).toEqual({
      FAILED: 2,
      SUCCEEDED: 1,
      success_rate: 33.3,
      time_cost_unit_min: 5,
    });
    expect(byDay[dayAgo(13)]).toEqual({
      FAILED: 0,
      SUCCEEDED: 1,
      success_rate: 100,
      time_cost_unit_min: 5,
    });
    const zeroDays = records.filter((r) => ![dayAgo(0), dayAgo(3), dayAgo(13)].includes(r.Date));
    expect(zeroDays).toHaveLength(11);
    for (const r of zeroDays)
      expect(metrics(r)).toEqual({
        FAILED: 0,
        SUCCEEDED: 0,
        success_rate: 0,
        time_cost_unit_min: 0,
      });

    // period windows: 3 weeks reaches the run of 14 days ago; 1 week is the last 7 days; default 2
    const three = (await data(user, 'datasource=9000&period=3')).body as any[];
    expect(three).toHaveLength(21);
    expect(three[0].Date).toBe(dayAgo(20));
    expect(metrics(three.find((r) => r.Date === dayAgo(14)))).toMatchObject({
      FAILED: 1,
      SUCCEEDED: 0,
    });
    const one = (await data(user, 'datasource=9000&period=1')).body as any[];
    expect(one.map((r) => r.Date)).toEqual(Array.from({ length: 7 }, (_, i) => dayAgo(6 - i)));
    expect((await data(user, 'datasource=9000')).body).toHaveLength(14);
  });

  it("never counts another user's runs", async () => {
    const a = await createUser(server);
    const b = await createUser(server);
    for (const id of [
      await seedJob(server, a, C.pipeline, 'succeeded', 1),
      await seedJob(server, b, C.pipeline, 'failed', 1),
      await seedJob(server, b, C.pipeline, 'succeeded', 1),
    ]) {
      await rollup.count(id);
    }
    const mine = metrics(((await data(a, 'datasource=9000&period=1')).body as any[]).find((r) => r.Date === dayAgo(1)));
    const theirs = metrics(((await data(b, 'datasource=9000&period=1')).body as any[]).find((r) => r.Date === dayAgo(1)));
    expect(mine).toEqual({
      FAILED: 0,
      SUCCEEDED: 1,
      success_rate: 100,
      time_cost_unit_min: 5,
    });
    expect(theirs).toEqual({
      FAILED: 1,
      SUCCEEDED: 1,
      success_rate: 50,
      time_cost_unit_min: 5,
    });
    // a user with no runs sees zeros on every day
    const c = await createUser(server);
    const empty = (await data(c, 'datasource=9000&period=2')).body as any[];
    expect(empty.every((r) => r.Type.every((t: any) => t.value === 0))).toBe(true);
  });

  it("uses the workflow's minutes_per_run from the catalogue for the minutes saved", async () => {
    const user = await createUser(server);
    for (let i = 0; i < 3; i += 1) await rollup.count(await seedJob(server, user, TIMED.combination, 'succeeded', 2));
    const row = await sql<{
      minutes_per_run: number;
    }>`select minutes_per_run from workflows where id = ${TIMED.workflow}`.execute(server.db);
    expect(Number(row.rows[0].minutes_per_run)).toBe(12);
    const day = ((await data(user, `datasource=${TIMED.workflow}&period=1`)).body as any[]).find((r) => r.Date === dayAgo(2));
    expect(metrics(day)).toEqual({
      FAILED: 0,
      SUCCEEDED: 3,
      success_rate: 100,
      time_cost_unit_min: 36,
    });
    // and the other workflow of the same user shows nothing of it
    const other = (await data(user, 'datasource=9000&period=1')).body as any[];
    expect(other.every((r) => metrics(r).SUCCEEDED === 0)).toBe(true);
  });

  it('moves a job that was retried from failed to succeeded, and keeps history after the job records are purged', async () => {
    const user = await createUser(server);
    const id = await seedJob(server, user, C.pipeline, 'failed', 4);
    expect(await rollup.count(id)).toBe('counted');
    await sql`update automation_jobs set status = 'succeeded', completed_at = ${new Date(`${dayAgo(1)}T08:00:00Z`)} where id = ${id}`.execute(server.db);
    expect(await rollup.count(id)).toBe('moved');
    expect(await rollup.count(id)).toBe('already-counted');
    const records = (await data(user, 'datasource=9000&period=1')).body as any[];
    expect(metrics(records.find((r) => r.Date === dayAgo(4)))).toMatchObject({
      FAILED: 0,
      SUCCEEDED: 0,
    });
    expect(metrics(records.find((r) => r.Date === dayAgo(1)))).toMatchObject({
      FAILED: 0,
      SUCCEEDED: 1,
    });
    await sql`delete from automation_jobs where id = ${id}`.execute(server.db);
    const after = (await data(user, 'datasource=9000&period=1')).body as any[];
    expect(metrics(after.find((r) => r.Date === dayAgo(1)))).toMatchObject({
      SUCCEEDED: 1,
    });
  });

  it('backfills finished jobs that were never counted; running and queued jobs are not counted', async () => {
    const user = await createUser(server);
    const done = await seedJob(server, user, C.pipeline, 'succeeded', 5);
    const running = await seedJob(server, user, C.pipeline, 'succeeded', 5);
    await sql`update automation_jobs set status = 'running', completed_at = null where id = ${running}`.execute(server.db);
    expect(await rollup.count(running)).toBe('not-finished');
    expect(await rollup.backfill()).toBeGreaterThanOrEqual(1);
    expect(await rollup.count(done)).toBe('already-counted');
    const day = ((await data(user, 'datasource=9000&period=1')).body as any[]).find((r) => r.Date === dayAgo(5));
    expect(metrics(day)).toMatchObject({ SUCCEEDED: 1, FAILED: 0 });
  });

  it('backfills page by page (a page of one job), counts a retried job once under its new status, and leaves counted jobs alone', async () => {
    const user = await createUser(server);
    expect(await rollup.backfill()).toBe(0);
    const a = await seedJob(server, user, C.pipeline, 'succeeded', 7);
    const b = await seedJob(server, user, C.pipeline, 'failed', 7);
    const c = await seedJob(server, user, C.pipeline, 'succeeded', 8);
    expect(await rollup.backfill(1)).toBe(3);
    expect(await rollup.backfill(1)).toBe(0);
    await sql`update automation_jobs set status = 'succeeded' where id = ${b}`.execute(server.db);
    expect(await rollup.backfill(2)).toBe(1);
    expect(await rollup.count(a)).toBe('already-counted');
    expect(await rollup.count(c)).toBe('already-counted');
    const records = (await data(user, 'datasource=9000&period=2')).body as any[];
    expect(metrics(records.find((r) => r.Date === dayAgo(7)))).toEqual({ FAILED: 0, SUCCEEDED: 2, success_rate: 100, time_cost_unit_min: 10 });
    expect(metrics(records.find((r) => r.Date === dayAgo(8)))).toEqual({ FAILED: 0, SUCCEEDED: 1, success_rate: 100, time_cost_unit_min: 5 });
  });

  it('answers no facts for an id that names no job', async () => {
    expect(await rollup.count('not-a-job-id')).toBe('not-finished');
    expect(await rollup.count('00000000-0000-4000-8000-000000000000')).toBe('not-finished');
  });

  it('refuses bad requests with a clear message', async () => {
    const user = await createUser(server);
    const none = await server.call('GET', `${PATH}?datasource=9000`);
    expect(none.status).toBe(401);
    const missing = await data(user, 'client_id=1&period=2');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      status: 'error',
      message: expect.stringContaining('datasource'),
    });
    const notNumber = await data(user, 'datasource=abc');
    expect(notNumber.status).toBe(400);
    expect(notNumber.body.message).toContain('workflow id');
    for (const p of ['0', '53', '-1', '1.5', 'two']) {
      const bad = await data(user, `datasource=9000&period=${p}`);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('period');
    }
    const unknown = await data(user, 'datasource=424242');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Workflow 424242 does not exist.');
  });
});
