import { sql } from 'kysely';
import * as ServerTokens from '../../src/server/tokens';
import { AutomationActions, type ActionDefinition } from '../../src/server/automation/kinds';
import type { Db } from '../../src/server/db/database';
import { callApi, createVerifiedUser, logInThroughUi, startE2EApp, type E2EApp } from './support/app';

jest.setTimeout(240_000);

/**
 * Issue 13 in Debian's Chromium, against the real engine: a user's recipe (webhook → transform →
 * store a record, all engine steps, so nothing third-party is needed) runs three times and a
 * second recipe of the same workflow fails once; the ML Monitoring Dashboard then shows today's
 * counts in its totals and in the plotly chart.
 */
describe("monitoring: the dashboard draws the day's real runs", () => {
  let app: E2EApp;
  const email = `mona.${Date.now()}@example.com`;
  const OK_COMBINATION = 913001;
  const FAIL_COMBINATION = 913002;
  let workflow: { id: number; name: string };

  const apiCall = <T>(method: string, path: string, body?: unknown): Promise<T> => callApi<T>(app, method, path, body);

  beforeAll(async () => {
    app = await startE2EApp();
    const db = app.server.container.get<Db>(ServerTokens.Db);
    // the first workflow of the Finance solution gets two engine-only combinations
    workflow = (
      await sql<{
        id: number;
        name: string;
      }>`select id, name from workflows where solution_id = 1 and not hidden order by id limit 1`.execute(db)
    ).rows[0];
    const steps = (last: { provider: string; action: string }) => [
      { kind: 'trigger', provider: 'webhook', action: 'webhook_received' },
      {
        kind: 'action',
        provider: 'flowmatic',
        action: 'transform',
        params: { map: { customer: 'name' } },
      },
      { kind: 'action', ...last },
    ];
    for (const [id, last] of [
      [OK_COMBINATION, { provider: 'flowmatic', action: 'store_record' }],
      [FAIL_COMBINATION, { provider: 'e2e_monitor', action: 'always_fail' }],
    ] as const) {
      await sql`insert into combinations (id, workflow_id, "order", name, sub_title, icon, created_time, status, enabled, recommended, connectors, triggers, recipe, plugin_id, seeded_at)
        values (${id}, ${workflow.id}, 99, ${`Monitoring e2e ${id}`}, 'e2e', 'test', now(), 'active', false, false, '[]', '[]',
          ${JSON.stringify({ name: `Monitoring e2e ${id}`, description: 'e2e', steps: steps(last) })}, 'monitoring-e2e', now())`.execute(db);
    }
    const failing: ActionDefinition = {
      provider: 'e2e_monitor',
      action: 'always_fail',
      name: 'Always fails (test)',
      retries: 0,
      async run() {
        throw new Error('The service is down (test failure).');
      },
    };
    app.server.container.get(ServerTokens.Contributions).of(AutomationActions).register('e2e_monitor:always_fail', failing, 'e2e-monitoring');
    // enabled once inserted, so the user's records include them
    await sql`update combinations set enabled = true where id in (${OK_COMBINATION}, ${FAIL_COMBINATION})`.execute(db);
    await createVerifiedUser(app, {
      name: 'Mona Monitor',
      email,
      password: 'graphs-Every-Day-1',
    });
    await logInThroughUi(app, email, 'graphs-Every-Day-1');
  });
  afterAll(() => app?.close());

  it("shows today's succeeded and failed runs in the totals and the chart", async () => {
    const { page } = app;
    const workatoId = await page.evaluate(() => Number(localStorage.getItem('workatoId')));
    type Rec = {
      recipe_id: number;
      combination: number;
      workato_webhook: string;
    };
    const records = (await apiCall<{ workato_recipes: Rec[] }>('GET', `/api/platform/userByWorkatoRecipe/${workatoId}/`)).workato_recipes;
    const run = async (combination: number, times: number) => {
      const rec = records.find((r) => r.combination === combination)!;
      expect(rec).toBeTruthy();
      const started = await apiCall<{ running?: boolean }>('PUT', '/api/platform/proxy', {
        url: `api/managed_users/${workatoId}/recipes/${rec.recipe_id}/start`,
      });
      expect(started.running).toBe(true);
      for (let i = 0; i < times; i += 1) {
        const res = await fetch(`${app.url}${new URL(rec.workato_webhook).pathname}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `Customer ${i}` }),
        });
        expect(res.status).toBe(200);
      }
    };
    await run(OK_COMBINATION, 3);
    await run(FAIL_COMBINATION, 1);
    // the runs finish on the queue and the roll-up counts them as they do
    const today = new Date().toISOString().slice(0, 10);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const data = await apiCall<Array<{ Date: string; Type: Array<{ type: string; value: number }> }>>(
        'GET',
        `/api/platform/monitoringData?client_id=e2e&datasource=${workflow.id}&period=2`,
      );
      const day = Object.fromEntries(data.find((r) => r.Date === today)!.Type.map((t) => [t.type, t.value]));
      if (day.SUCCEEDED === 3 && day.FAILED === 1) break;
      if (Date.now() > deadline) throw new Error(`today's record: ${JSON.stringify(day)}`);
      await new Promise((r) => setTimeout(r, 500));
    }

    // reached from the home dashboard: the running combination's card links to its workflow's runs
    await page.goto('/home');
    await page.getByRole('link', { name: `Monitoring: Monitoring e2e ${OK_COMBINATION}` }).click();
    await page.waitForURL((u) => u.pathname === '/monitoring/1' && u.searchParams.get('workflow') === String(workflow.id));
    await page.getByRole('heading', { name: 'ML Monitoring Dashboard', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Monitoring').waitFor();
    expect(await page.getByRole('tab', { name: workflow.name }).getAttribute('aria-selected')).toBe('true');
    const panel = page.getByRole('region', {
      name: `Runs of ${workflow.name}`,
    });
    await panel.waitFor();
    await panel.getByText('75%', { exact: true }).waitFor();
    await panel.getByText('4', { exact: true }).waitFor();
    // the chart: plotly keeps the drawn traces on its div
    const plot = panel.locator('.js-plotly-plot');
    await plot.waitFor({ timeout: 30_000 });
    await panel.locator('.legend').waitFor();
    const traces = await plot.evaluate((el) =>
      (
        el as unknown as {
          data: Array<{
            name: string;
            x: string[];
            y: number[];
            line: { shape: string; smoothing: number };
          }>;
        }
      ).data.map((t) => ({
        name: t.name,
        x: t.x,
        y: t.y,
        shape: t.line.shape,
        smoothing: t.line.smoothing,
      })),
    );
    expect(traces.map((t) => t.name)).toEqual(['Succeeded', 'Failed', 'Success rate (%)', 'Minutes saved']);
    for (const t of traces) {
      expect(t.x).toHaveLength(14);
      expect(t.x[13]).toBe(today);
      expect(t.shape).toBe('spline');
      expect(t.smoothing).toBe(0.1);
    }
    expect(traces.map((t) => t.y[13])).toEqual([3, 1, 75, 15]);
    expect(await panel.locator('.scatterlayer .trace').count()).toBe(4);
    await app.screenshot('monitoring-dashboard');
  });
});
