/**
 * A tiny drop-in plugin for the crash test and the engine bench, written into a plugins folder
 * at test time: its catalogue gives the combinations below, it contributes a slow action with an
 * idempotent side effect, and its routes report what happened (the server's database may be an
 * embedded PGlite that only the server process can open).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const repo = path.resolve(__dirname, '../../..');

/** The probe plugin's combinations (ids in the catalogue; each user gets a recipe of each). */
export const PROBE = {
  /** webhook → engine_probe:slow_effect (side effect, then waits params.ms) → flowmatic:store_record */
  crash: 9101,
  /** webhook → flowmatic:transform → flowmatic:store_record (the bench's three-step recipe) */
  threeStep: 9102,
  /** webhook → flowmatic:transform */
  oneAction: 9103,
  /** webhook → flowmatic:transform × 3 */
  threeActions: 9104,
} as const;

export const PROBE_PLUGIN_ID = 'engine-probe';

/** How long the slow step waits after its side effect, ms. */
export const SLOW_STEP_MS = 1500;

/** Writes the plugin into `pluginsDir/engine-probe/server.ts`; `pluginsDir` must lie inside the repository (imports resolve from there). */
export function writeProbePlugin(pluginsDir: string): void {
  const dir = path.join(pluginsDir, PROBE_PLUGIN_ID);
  mkdirSync(dir, { recursive: true });
  const face = path.relative(dir, path.join(repo, 'src/server')).replace(/\\/g, '/');
  writeFileSync(path.join(dir, 'server.ts'), source(face));
}

function source(face: string): string {
  return `import { sql } from 'kysely';
import { defineServerPlugin, contribute, AutomationActions, T, userOf, badRequest, type Db } from '${face}';

let db: Db | undefined;
const WEBHOOK = { kind: 'trigger', provider: 'webhook', action: 'webhook_received' } as const;
const TRANSFORM = { kind: 'action', provider: 'flowmatic', action: 'transform', params: { map: { customer: 'name', total: 'order.total', n: 'n' }, set: { source: 'probe' } } } as const;
const STORE = { kind: 'action', provider: 'flowmatic', action: 'store_record' } as const;
const combination = (id: number, name: string, steps: unknown[]) => ({
  id, workflow_id: 9100, order: id - 9100, name, sub_title: 'engine probe', icon: 'test',
  created_time: '2026-11-22T00:00:00Z', status: 'active', enabled: true, recommended: false,
  triggers: [], connectors: [], recipe: { name, description: name, steps },
});

/** Writes its side effect once per idempotency key, counts every execution, then waits. */
const slowEffect = {
  provider: 'engine_probe',
  action: 'slow_effect',
  name: 'Slow side effect',
  retries: 3,
  async run(input: any, ctx: any) {
    if (!db) throw new Error('engine-probe has not started');
    await sql\`insert into probe_runs (key, job_id, attempt, pid) values (\${ctx.idempotencyKey}, \${ctx.jobId}, \${ctx.attempt}, \${process.pid})\`.execute(db);
    if (!(await ctx.ledger.has('probe:' + ctx.idempotencyKey))) {
      await sql\`insert into probe_effects (key, job_id) values (\${ctx.idempotencyKey}, \${ctx.jobId}) on conflict (key) do nothing\`.execute(db);
      await ctx.ledger.record('probe:' + ctx.idempotencyKey, 'probe');
    }
    const ms = Number(ctx.params.ms ?? ${SLOW_STEP_MS});
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      ctx.signal.addEventListener('abort', () => { clearTimeout(t); resolve(); });
    });
    return { ...(input?.data ?? input), effect: ctx.idempotencyKey };
  },
};

async function ownRecipe(workatoId: number | null, raw: unknown): Promise<number> {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw badRequest('Give ?recipe=<id>.');
  const row = await db!.selectFrom('user_recipes' as never).select('id' as never).where('id' as never, '=', id as never).where('managed_user_id' as never, '=', workatoId as never).executeTakeFirst();
  if (!row) throw badRequest('Not your recipe.');
  return id;
}

export default defineServerPlugin({
  id: '${PROBE_PLUGIN_ID}',
  needs: { db: T.Db },
  migrations: [{
    id: '${PROBE_PLUGIN_ID}/0001_probe',
    async up(d) {
      await sql\`create table probe_runs (id serial primary key, key text not null, job_id text not null, attempt integer not null, pid integer not null, at timestamptz not null default now())\`.execute(d);
      await sql\`create table probe_effects (key text primary key, job_id text not null, at timestamptz not null default now())\`.execute(d);
    },
  }],
  catalogue: {
    solutions: [{ id: 910, name: 'Engine probe', descrption: 'Engine probe', icon: 'test', status: 'active', author_first_name: 'Test', created_time: '2026-11-22T00:00:00Z' }],
    workflows: [{ id: 9100, solution_id: 910, name: 'Engine probe workflow', descrption: 'Engine probe', icon: 'test' }],
    combinations: [
      combination(${PROBE.crash}, 'Probe: slow side effect', [WEBHOOK, { kind: 'action', provider: 'engine_probe', action: 'slow_effect' }, STORE]),
      combination(${PROBE.threeStep}, 'Probe: webhook, transform, store', [WEBHOOK, TRANSFORM, STORE]),
      combination(${PROBE.oneAction}, 'Probe: one transform', [WEBHOOK, TRANSFORM]),
      combination(${PROBE.threeActions}, 'Probe: three transforms', [WEBHOOK, TRANSFORM, TRANSFORM, TRANSFORM]),
    ],
  } as any,
  contributes: [contribute(AutomationActions, slowEffect)],
  onStart(deps) {
    db = deps.db;
  },
  routes(app) {
    /** what the slow step did for one of the caller's recipes */
    app.get('/api/plugins/${PROBE_PLUGIN_ID}/counts', { auth: 'user' }, async (request) => {
      const recipe = await ownRecipe(userOf(request).workatoId, (request.query as any).recipe);
      const runs = await sql<any>\`select r.key, r.attempt, r.pid from probe_runs r join automation_jobs j on j.id::text = r.job_id where j.recipe_id = \${recipe} order by r.id\`.execute(db!);
      const effects = await sql<any>\`select e.key from probe_effects e join automation_jobs j on j.id::text = e.job_id where j.recipe_id = \${recipe} order by e.key\`.execute(db!);
      const records = await sql<any>\`select idempotency_key as key from automation_records where recipe_id = \${recipe} order by idempotency_key\`.execute(db!);
      const jobs = await sql<any>\`select id, status, attempt from automation_jobs where recipe_id = \${recipe} order by created_at\`.execute(db!);
      return { runs: runs.rows, effects: effects.rows, records: records.rows, jobs: jobs.rows };
    });
    /** created → completed times (epoch ms) of the caller's jobs on these recipes */
    app.get('/api/plugins/${PROBE_PLUGIN_ID}/job-times', { auth: 'user' }, async (request) => {
      const recipe = await ownRecipe(userOf(request).workatoId, (request.query as any).recipe);
      const { rows } = await sql<any>\`select status,
          (extract(epoch from created_at) * 1000)::float8 as created,
          (extract(epoch from completed_at) * 1000)::float8 as completed
        from automation_jobs where recipe_id = \${recipe}\`.execute(db!);
      return { jobs: rows };
    });
  },
});
`;
}
