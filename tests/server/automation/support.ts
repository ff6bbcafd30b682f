import { contribute, defineServerPlugin, PermanentStepError, type ActionDefinition, type CatalogueContribution } from '../../../src/server';
import { AutomationActions } from '../../../src/server/automation/kinds';
import { type CombinationSeed } from '../../../src/core/wire-types';
import { AutomationOptions, type EngineOptions } from '../../../src/server/automation';
import type { Db } from '../../../src/server/db/database';
import { combinationRow } from '../../../src/server/catalogue/seed';
import { createUser, startTestServer, type TestServer, type TestServerOptions, type TestUser } from '../../support/server';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits until `fn` gives a truthy value (checked every 100 ms) and returns it; throws naming `what` after the time-out. */
export async function until<V>(what: string, fn: () => Promise<V | undefined | false>, timeoutMs = 20_000): Promise<V> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Test combinations, one per behaviour. */
export const C = {
  pipeline: 9001, // webhook → transform → store_record
  missing: 9002, // names an action nobody contributes
  flaky: 9003, // transform → test:flaky (fails params.failTimes times) → store_record
  slow: 9004, // test:slow, which outlives its time-out
  starter: 9005, // set up through the starter recipe
  basic: 9006, // starter + completes on start (a basic variant)
  email: 9007, // email:send → test:flaky
  inbound: 9008, // manual_email → transform → store_record
  block: 9009, // test:block, held until released (the per-user limit)
  plain: 9010, // no starter, not completes on start
  dropIn: 9011, // acme:shout from the dropped-in plugin
  fails: 9012, // test:always_fail (3 tries)
} as const;

export function combination(id: number, steps: CombinationSeed['recipe']['steps'], extra: Partial<CombinationSeed> = {}): CombinationSeed {
  return {
    id,
    workflow_id: 9000,
    order: id - 9000,
    name: `Test combination ${id}`,
    sub_title: 'for engine tests',
    icon: 'test',
    created_time: '2024-01-01T00:00:00Z',
    status: 'active',
    enabled: true,
    recommended: false,
    triggers: [],
    connectors: [],
    recipe: { name: `Test recipe ${id}`, description: `Recipe of ${id}`, steps },
    ...extra,
  };
}

const WEBHOOK = { kind: 'trigger', provider: 'webhook', action: 'webhook_received' } as const;
const TRANSFORM = {
  kind: 'action',
  provider: 'flowmatic',
  action: 'transform',
  params: { map: { customer: 'name', total: 'order.total' }, set: { source: 'test' } },
} as const;
const STORE = { kind: 'action', provider: 'flowmatic', action: 'store_record' } as const;

/**
 * The test combinations. The catalogue schema only lets a plugin's recipe steps name connector
 * providers, so these fixtures (which use the engine's own webhook / flowmatic / email steps)
 * are written straight into the combinations table once the server has started.
 */
export const testCombinations: CombinationSeed[] = [
  combination(C.pipeline, [WEBHOOK, TRANSFORM, STORE]),
  combination(C.missing, [WEBHOOK, { kind: 'action', provider: 'acme', action: 'does_not_exist' }, STORE]),
  combination(C.flaky, [WEBHOOK, TRANSFORM, { kind: 'action', provider: 'test', action: 'flaky', params: { failTimes: 2 } }, STORE]),
  combination(C.slow, [WEBHOOK, { kind: 'action', provider: 'test', action: 'slow' }]),
  combination(C.starter, [WEBHOOK, STORE], { starter_recipe: true }),
  combination(C.basic, [{ kind: 'trigger', provider: 'manual_upload', action: 'file_uploaded' }, STORE], { starter_recipe: true, completes_on_start: true }),
  combination(C.email, [
    WEBHOOK,
    { kind: 'action', provider: 'email', action: 'send', params: { to: '{{email}}', subject: 'Hello {{name}}', text: 'Your order of {{order.total}} is in.' } },
    { kind: 'action', provider: 'test', action: 'flaky', params: { failTimes: 99 } },
  ]),
  combination(C.inbound, [
    { kind: 'trigger', provider: 'manual_email', action: 'email_received' },
    { kind: 'action', provider: 'flowmatic', action: 'transform', params: { map: { subject: 'subject', from: 'from' } } },
    STORE,
  ]),
  combination(C.block, [WEBHOOK, { kind: 'action', provider: 'test', action: 'block' }]),
  combination(C.plain, [WEBHOOK, STORE]),
  combination(C.fails, [WEBHOOK, TRANSFORM, { kind: 'action', provider: 'test', action: 'always_fail' }, STORE]),
];

/** Writes the test combinations into the catalogue tables (shown, enabled). */
export async function seedTestCombinations(server: TestServer): Promise<void> {
  for (const c of testCombinations) {
    await server.db
      .insertInto('combinations')
      .values({ id: c.id, ...combinationRow(c, 'engine-test', false, new Date()) })
      .execute();
  }
}

/** Shared state of the test actions. */
export const probe = {
  tries: new Map<string, number>(),
  running: 0,
  maxRunning: 0,
  release: [] as Array<() => void>,
  /** Counts one more try of a step (by its idempotency key); returns the count. */
  countTry(key: string): number {
    const n = (this.tries.get(key) ?? 0) + 1;
    this.tries.set(key, n);
    return n;
  },
  reset() {
    this.tries.clear();
    this.running = 0;
    this.maxRunning = 0;
    this.release.splice(0).forEach((r) => r());
  },
};

const flaky: ActionDefinition = {
  provider: 'test',
  action: 'flaky',
  name: 'Flaky step',
  async run(input, ctx) {
    const n = probe.countTry(ctx.idempotencyKey);
    if (n <= Number(ctx.params.failTimes ?? 0)) throw new Error(`flaky failure ${n}`);
    return { ...(input as object), flaky_tries: n };
  },
};

const slow: ActionDefinition = {
  provider: 'test',
  action: 'slow',
  name: 'Slow step',
  timeoutMs: 100,
  retries: 2,
  async run(_input, ctx) {
    await new Promise((resolve) => {
      const t = setTimeout(resolve, 5000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(t);
        resolve(undefined);
      });
    });
    return { done: true };
  },
};

const block: ActionDefinition = {
  provider: 'test',
  action: 'block',
  name: 'Held step',
  // held until the test releases it, however slow the machine: never stopped by FAST's 2 s step
  // time-out and tried again (each new try would count as one more step running at once)
  timeoutMs: 60_000,
  async run() {
    probe.running += 1;
    probe.maxRunning = Math.max(probe.maxRunning, probe.running);
    await new Promise<void>((resolve) => probe.release.push(resolve));
    probe.running -= 1;
    return { released: true };
  },
};

const alwaysFail: ActionDefinition = {
  provider: 'test',
  action: 'always_fail',
  name: 'Failing step',
  async run(_input, ctx) {
    const n = probe.countTry(ctx.idempotencyKey);
    if (ctx.params.permanent) throw new PermanentStepError('bad input');
    throw new Error(`the service is down (try ${n})`);
  },
};

/** The engine tests' catalogue and test actions, as a plugin. */
export const testPlugin = defineServerPlugin({
  id: 'engine-test',
  contributes: [flaky, slow, block, alwaysFail].map((a) => contribute(AutomationActions, a)),
});

const dropInCatalogue: CatalogueContribution = {
  solutions: [
    {
      id: 900,
      name: 'Engine tests',
      descrption: 'Test solution',
      icon: 'test',
      status: 'active',
      author_first_name: 'Test',
      created_time: '2024-01-01T00:00:00Z',
    },
  ],
  workflows: [{ id: 9000, solution_id: 900, name: 'Engine test workflow', descrption: 'Test workflow', icon: 'test' }],
  combinations: [
    combination(C.dropIn, [
      { kind: 'trigger', provider: 'manual_upload', action: 'file_uploaded' },
      { kind: 'action', provider: 'acme_ai', action: 'shout' },
    ]),
  ],
};

/** A plugin dropped in with a new action and a combination using it: nothing in the engine names it. */
export const dropInPlugin = defineServerPlugin({
  id: 'acme-actions',
  catalogue: dropInCatalogue,
  contributes: [
    contribute(AutomationActions, {
      provider: 'acme_ai',
      action: 'shout',
      name: 'Shout the name',
      async run(input: { name?: string; data?: { name?: string } }) {
        const name = input.data?.name ?? input.name ?? '';
        return { shout: `${String(name).toUpperCase()}!` };
      },
    }),
  ],
});

export const FAST: Partial<EngineOptions> = {
  backoffBaseMs: 20,
  backoffMaxMs: 100,
  busyDelayMs: 30,
  leaseMs: 3000,
  stepTimeoutMs: 2000,
};

/** A test server with the engine's test plugins and fast timings. */
export async function engineServer(
  opts: { options?: Partial<EngineOptions>; env?: Record<string, string>; db?: Db; overrides?: TestServerOptions['overrides'] } = {},
): Promise<TestServer> {
  const server = await startTestServer({
    plugins: [testPlugin, dropInPlugin],
    env: opts.env,
    db: opts.db,
    overrides: (c) => {
      const base = c.get<EngineOptions>(AutomationOptions);
      c.rebind<EngineOptions>(AutomationOptions).toConstantValue({ ...base, ...FAST, ...opts.options });
      opts.overrides?.(c);
    },
  });
  await seedTestCombinations(server);
  return server;
}

export interface Rec {
  recipe_id: number;
  combination: number;
  status: string;
  workato_webhook: string;
  job_succeeded_count: number;
  job_failed_count: number;
}

/** The user's record of a combination, through userByWorkatoRecipe (creates them on first read). */
export async function recordOf(server: TestServer, user: TestUser, combinationId: number): Promise<Rec> {
  const res = await server.call('GET', `/api/platform/userByWorkatoRecipe/${user.workatoId}/`, { token: user.access });
  if (res.status !== 200) throw new Error(`records: ${res.status} ${JSON.stringify(res.body)}`);
  const rec = res.body.workato_recipes.find((r: Rec) => r.combination === combinationId);
  if (!rec) throw new Error(`no record of combination ${combinationId}`);
  return rec;
}

export async function startRecipe(server: TestServer, user: TestUser, recipeId: number, kind: 'start' | 'stop' = 'start') {
  return server.call('PUT', '/api/platform/proxy', { token: user.access, body: { url: `api/managed_users/${user.workatoId}/recipes/${recipeId}/${kind}` } });
}

/** The path of a record's webhook (its URL without the public origin). */
export function webhookPath(rec: Rec): string {
  return new URL(rec.workato_webhook).pathname;
}

/** Waits for a job to reach one of the statuses; returns { job, steps }. */
export async function waitForJob(
  server: TestServer,
  user: TestUser,
  jobId: string,
  statuses = ['succeeded', 'failed'],
  timeoutMs = 10_000,
): Promise<{ job: any; steps: any[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.call('GET', `/api/automation/jobs/${jobId}`, { token: user.access });
    if (res.status === 200 && statuses.includes(res.body.job.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`job ${jobId}: ${JSON.stringify(res.body)} not ${statuses.join('/')} after ${timeoutMs} ms`);
    await sleep(30);
  }
}

/**
 * Waits until a combination's record reaches a setup status. A job's consequences (the setup
 * moves, the counts) are written right after the job is marked finished, so a caller that has
 * just seen the job finish may read the record a moment before they land.
 */
export async function waitForStatus(server: TestServer, user: TestUser, combinationId: number, status: string, timeoutMs = 10_000): Promise<Rec> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rec = await recordOf(server, user, combinationId);
    if (rec.status === status || Date.now() > deadline) return rec;
    await sleep(30);
  }
}

/** A started recipe of a combination for a fresh user. */
export async function readyRecipe(server: TestServer, combinationId: number, user?: TestUser): Promise<{ user: TestUser; rec: Rec }> {
  const u = user ?? (await createUser(server));
  const rec = await recordOf(server, u, combinationId);
  const res = await startRecipe(server, u, rec.recipe_id);
  if (res.status !== 200) throw new Error(`start: ${res.status} ${JSON.stringify(res.body)}`);
  return { user: u, rec };
}
