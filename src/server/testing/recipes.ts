import { createUser, type TestServer, type TestUser } from './server';

/** A job as GET /api/automation/jobs/:jobId gives it. */
export interface TestJob {
  id: string;
  recipe_id: number;
  combination_id: number;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  title: string;
  trigger_summary: string | null;
  error: string | null;
  attempt: number;
  [field: string]: unknown;
}

/** One step of a job: step 0 is the trigger; `output` is all the step returned (once it succeeded). */
export interface TestStep {
  index: number;
  provider: string;
  action: string;
  name: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped';
  output: unknown;
  output_summary: string | null;
  error: string | null;
  attempts: number;
  [field: string]: unknown;
}

/** A finished job with its steps; `output(i)` is step i's whole output. */
export interface TestRun {
  job: TestJob;
  steps: TestStep[];
  output<O = unknown>(index: number): O;
}

/** A user's recipe of one combination, started, with ways to run it. */
export interface TestRecipe {
  user: TestUser;
  combinationId: number;
  recipeId: number;
  /** the record's webhook address, without the origin */
  webhookPath: string;
  /** Posts `payload` to the recipe's webhook (the trigger's payload); resolves with the job id. */
  trigger(payload: unknown): Promise<string>;
  /** Waits until the job has finished (succeeded or failed) and reads it with its steps. */
  waitForJob(jobId: string, timeoutMs?: number): Promise<TestRun>;
  /** Waits for the recipe's next job after those it has now (a push trigger, a polled trigger, a plugin route that starts a run). */
  nextJob(start: () => Promise<unknown>, timeoutMs?: number): Promise<TestRun>;
  /** trigger + waitForJob. */
  run(payload: unknown, timeoutMs?: number): Promise<TestRun>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function ok<B = any>(reply: Promise<{ status: number; body: B }>, what: string): Promise<B> {
  const res = await reply;
  if (res.status !== 200) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * The recipe of `combinationId` for `user` (a new user when none is given), through the API a
 * browser uses: the user's records, then Start (unless `start: false`).
 *
 *   const recipe = await recipeOf(server, 900001);
 *   const run = await recipe.run({ number: 'DE123456789' });
 *   expect(run.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded']);
 *   expect(run.output(1)).toEqual({ valid: true, country: 'Germany' });
 */
export async function recipeOf(server: TestServer, combinationId: number, opts: { user?: TestUser; start?: boolean } = {}): Promise<TestRecipe> {
  const user = opts.user ?? (await createUser(server));
  const records = await ok(server.call('GET', `/api/platform/userByWorkatoRecipe/${user.workatoId}/`, { token: user.access }), "the user's recipes");
  const rec = (records.workato_recipes as Array<{ combination: number; recipe_id: number; workato_webhook: string }>).find(
    (r) => r.combination === combinationId,
  );
  if (!rec) throw new Error(`The user has no recipe of combination ${combinationId}: is it in a loaded plugin's catalogue, enabled and shown?`);
  const control = (kind: 'start' | 'stop') =>
    ok(
      server.call('PUT', '/api/platform/proxy', { token: user.access, body: { url: `api/managed_users/${user.workatoId}/recipes/${rec.recipe_id}/${kind}` } }),
      `${kind} recipe ${rec.recipe_id}`,
    );
  if (opts.start !== false) await control('start');

  const read = async (jobId: string): Promise<{ job: TestJob; steps: TestStep[] } | undefined> => {
    const res = await server.call('GET', `/api/automation/jobs/${jobId}`, { token: user.access });
    return res.status === 200 ? res.body : undefined;
  };
  const waitForJob = async (jobId: string, timeoutMs = 20_000): Promise<TestRun> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const body = await read(jobId);
      if (body && (body.job.status === 'succeeded' || body.job.status === 'failed')) {
        return {
          ...body,
          output: <O>(index: number) => {
            const step = body.steps.find((s) => s.index === index);
            if (!step) throw new Error(`Job ${jobId} has no step ${index} (steps 0-${body.steps.length - 1})`);
            return step.output as O;
          },
        };
      }
      if (Date.now() > deadline) throw new Error(`Job ${jobId} did not finish within ${timeoutMs} ms: ${JSON.stringify(body?.job ?? 'not found')}`);
      await sleep(25);
    }
  };
  const jobIds = async (): Promise<string[]> =>
    (await ok(server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs?limit=200`, { token: user.access }), "the recipe's jobs")).jobs.map(
      (j: { id: string }) => j.id,
    );
  const trigger = async (payload: unknown) => {
    const body = await ok(server.call('POST', new URL(rec.workato_webhook).pathname, { body: payload }), `webhook of recipe ${rec.recipe_id}`);
    if (typeof body.job_id !== 'string') throw new Error(`The webhook started no job: ${JSON.stringify(body)}`);
    return body.job_id as string;
  };
  return {
    user,
    combinationId,
    recipeId: rec.recipe_id,
    webhookPath: new URL(rec.workato_webhook).pathname,
    trigger,
    waitForJob,
    async nextJob(start, timeoutMs = 20_000) {
      const before = new Set(await jobIds());
      await start();
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const fresh = (await jobIds()).find((id) => !before.has(id));
        if (fresh) return waitForJob(fresh, Math.max(1, deadline - Date.now()));
        if (Date.now() > deadline) throw new Error(`Recipe ${rec.recipe_id} started no job within ${timeoutMs} ms`);
        await sleep(25);
      }
    },
    async run(payload, timeoutMs) {
      return waitForJob(await trigger(payload), timeoutMs);
    },
    async stop() {
      await control('stop');
    },
  };
}
