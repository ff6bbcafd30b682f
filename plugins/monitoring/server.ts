import type { Subscription } from 'rxjs';
import { FinishedJobs, T, WorkflowTimes, defineServerPlugin, notFound, userOf } from '../../src/server';
import querySchema from '../../schemas/monitoring/monitoring-data-query.schema.json';
import { monitoringMigrations } from './migrations';
import { DEFAULT_MINUTES_PER_RUN, monitoringRecords, windowOf } from './records';
import { RunRollup } from './rollup';

/** The spec's monitoring data path (section 7). */
export const MONITORING_DATA_PATH = '/api/platform/monitoringData';
/** The spec's period when the request does not give one: 2 weeks. */
export const DEFAULT_PERIOD_WEEKS = 2;

interface MonitoringQuery {
  client_id?: string;
  datasource: string;
  period?: string;
}

/** Per server (keyed by its event bus): the subscription and the counts still being written. */
const live = new WeakMap<object, { subscription: Subscription; pending: Set<Promise<unknown>> }>();

/**
 * Monitoring from real runs: a daily roll-up per user and workflow, kept up to date from the
 * engine's 'job/status-changed' events (and a backfill at start), served as the spec's
 * monitoring records by GET /api/platform/monitoringData for the caller only. Job facts come
 * from the automation module (FinishedJobs), a workflow's minutes per run from the catalogue
 * (WorkflowTimes, its catalogue field minutes_per_run).
 */
export default defineServerPlugin({
  id: 'monitoring',
  needs: {
    db: T.Db,
    events: T.EventBus,
    clock: T.Clock,
    log: T.Logger,
    jobs: FinishedJobs,
    workflows: WorkflowTimes,
  },
  migrations: monitoringMigrations,
  routes(app, { db, clock, jobs, workflows }) {
    const rollup = new RunRollup(db, jobs);
    app.get<{ Querystring: MonitoringQuery }>(MONITORING_DATA_PATH, { auth: 'user', schema: { querystring: querySchema } }, async (request) => {
      const user = userOf(request);
      const workflowId = Number(request.query.datasource);
      const weeks = request.query.period === undefined ? DEFAULT_PERIOD_WEEKS : Number(request.query.period);
      const minutes = await workflows.minutesPerRun(workflowId);
      if (minutes === undefined) throw notFound(`Workflow ${workflowId} does not exist.`);
      const minutesPerRun = minutes ?? DEFAULT_MINUTES_PER_RUN;
      const window = windowOf(weeks, clock.now());
      const rows = await rollup.days(user.id, workflowId, window.from, window.to);
      return monitoringRecords({
        clientId: user.id,
        workflowId,
        days: window.days,
        rows,
        minutesPerRun,
      });
    });
  },
  async onStart({ db, events, log, jobs }) {
    const rollup = new RunRollup(db, jobs);
    const pending = new Set<Promise<unknown>>();
    const subscription = events.on('job/status-changed').subscribe(({ jobId, status }) => {
      if (status !== 'succeeded' && status !== 'failed') return;
      const work = rollup
        .count(jobId)
        .catch((e: unknown) => log.warn({ err: e, jobId }, `Could not count job ${jobId} in the monitoring roll-up: ${(e as Error).message}`))
        .finally(() => pending.delete(work));
      pending.add(work);
    });
    live.set(events, { subscription, pending });
    const counted = await rollup.backfill();
    if (counted > 0) log.info({ counted }, `Monitoring: counted ${counted} finished runs not yet in the roll-up`);
  },
  async onStop({ events }) {
    const state = live.get(events);
    if (!state) return;
    live.delete(events);
    state.subscription.unsubscribe();
    await Promise.all([...state.pending]);
  },
});
