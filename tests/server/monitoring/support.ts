import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { defineServerPlugin, type CatalogueContribution } from '../../../src/server';
import { AutomationOptions, type EngineOptions } from '../../../src/server/automation';
import monitoringPlugin from '../../../plugins/monitoring/server';
import { startTestServer, type TestServer, type TestUser } from '../../support/server';
import { FAST, dropInPlugin, recordOf, seedTestCombinations, testPlugin } from '../automation/support';

/** A workflow that says how many minutes a run saves, with one combination (inserted by seedTimed). */
export const TIMED = {
  solution: 950,
  workflow: 9500,
  combination: 9501,
  minutes: 12,
} as const;

const timedCatalogue: CatalogueContribution = {
  solutions: [
    {
      id: TIMED.solution,
      name: 'Timed tests',
      descrption: 'Test solution',
      icon: 'test',
      status: 'active',
      author_first_name: 'Test',
      created_time: '2024-01-01T00:00:00Z',
    },
  ],
  workflows: [
    {
      id: TIMED.workflow,
      solution_id: TIMED.solution,
      name: 'Timed workflow',
      descrption: 'Saves 12 minutes a run',
      icon: 'test',
      minutes_per_run: TIMED.minutes,
    },
  ],
};

export const timedPlugin = defineServerPlugin({
  id: 'monitoring-timed-test',
  catalogue: timedCatalogue,
});

/** A server with the engine's test plugins, fast engine timings and the monitoring plugin. */
export async function monitoringServer(opts: { listen?: boolean } = {}): Promise<TestServer> {
  const server = await startTestServer({
    plugins: [testPlugin, dropInPlugin, timedPlugin, monitoringPlugin],
    listen: opts.listen,
    overrides: (c) => {
      const base = c.get<EngineOptions>(AutomationOptions);
      c.rebind<EngineOptions>(AutomationOptions).toConstantValue({
        ...base,
        ...FAST,
      });
    },
  });
  await seedTestCombinations(server);
  await sql`insert into combinations (id, workflow_id, "order", name, sub_title, icon, created_time, status, enabled, recommended, connectors, triggers, recipe, plugin_id, seeded_at)
    select ${TIMED.combination}, ${TIMED.workflow}, 1, 'Timed combination', sub_title, icon, created_time, status, enabled, recommended, connectors, triggers, recipe, plugin_id, seeded_at
    from combinations where id = 9001`.execute(server.db);
  return server;
}

/** 'YYYY-MM-DD' of the UTC day `daysAgo` days before today. */
export function dayAgo(daysAgo: number, now = Date.now()): string {
  return new Date(now - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Writes a finished job record straight into automation_jobs (as the engine would leave it),
 * finished at noon UTC `daysAgo` days ago, for the user's recipe of `combinationId`.
 */
export async function seedJob(
  server: TestServer,
  user: TestUser,
  combinationId: number,
  status: 'succeeded' | 'failed',
  daysAgo: number,
  recipeCombination = 9001,
): Promise<string> {
  const rec = await recordOf(server, user, recipeCombination);
  const id = randomUUID();
  const completed = new Date(`${dayAgo(daysAgo)}T12:00:00Z`);
  await sql`insert into automation_jobs (id, managed_user_id, user_id, recipe_id, combination_id, status, title, trigger_summary, trigger_payload, created_at, started_at, completed_at)
    values (${id}, ${user.workatoId}, ${user.id}, ${rec.recipe_id}, ${combinationId}, ${status}, 'Seeded run', 'seeded', ${JSON.stringify({ source: 'test', data: {}, files: [] })},
      ${completed}, ${completed}, ${completed})`.execute(server.db);
  return id;
}

/** The metrics of one record as a plain object: { FAILED, SUCCEEDED, success_rate, time_cost_unit_min }. */
export function metrics(record: { Type: Array<{ type: string; value: number }> }): Record<string, number> {
  return Object.fromEntries(record.Type.map((t) => [t.type, t.value]));
}
