import monitoringPlugin from '../../../plugins/monitoring/server';
import { AutomationOptions, type EngineOptions } from '../../../src/server/automation';
import { openTestDatabase, startTestServer, type TestDatabase } from '../../support/server';
import { C, FAST, dropInPlugin, readyRecipe, seedTestCombinations, testPlugin, waitForJob, webhookPath } from '../automation/support';
import { dayAgo, metrics } from './support';

jest.setTimeout(60_000);

const fast = (c: import('inversify').Container) => {
  const base = c.get<EngineOptions>(AutomationOptions);
  c.rebind<EngineOptions>(AutomationOptions).toConstantValue({ ...base, ...FAST });
};

describe('the monitoring plugin added to a server that already has finished runs', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  it('counts the runs that finished before it was installed, once, when it starts', async () => {
    const before = await startTestServer({ db: database.db, plugins: [testPlugin, dropInPlugin], overrides: fast });
    await seedTestCombinations(before);
    const { user, rec } = await readyRecipe(before, C.pipeline);
    for (let i = 0; i < 2; i += 1) {
      const res = await before.call('POST', webhookPath(rec), { body: { name: `Run ${i}` } });
      await waitForJob(before, user, res.body.job_id);
    }
    await before.close();

    for (let restart = 0; restart < 2; restart += 1) {
      const after = await startTestServer({ db: database.db, plugins: [testPlugin, dropInPlugin, monitoringPlugin], overrides: fast });
      try {
        const res = await after.call('GET', '/api/platform/monitoringData?client_id=1&datasource=9000&period=2', { token: user.access });
        expect(res.status).toBe(200);
        expect(metrics(res.body.find((r: { Date: string }) => r.Date === dayAgo(0)))).toEqual({
          FAILED: 0,
          SUCCEEDED: 2,
          success_rate: 100,
          time_cost_unit_min: 10,
        });
      } finally {
        await after.close();
      }
    }
  });
});
