import { sql } from 'kysely';
import { token } from '../../core/di';
import type { CombinationWorkflowsService } from '../catalogue/combination-workflows';
import type { Db } from '../db/database';

/** A job that reached its final status, as a roll-up of runs needs it. */
export interface FinishedJobFact {
  id: string;
  userId: number;
  /** the workflow of the job's combination; null when that combination is not in the catalogue */
  workflowId: number | null;
  status: 'succeeded' | 'failed';
  /** 'YYYY-MM-DD' (UTC) of the day the job finished (created, when it has no end time) */
  day: string;
}

/**
 * Finished automation jobs, read through the automation module (which owns automation_jobs).
 * Both reads are one set-based query, whatever the number of jobs asked for.
 */
export interface FinishedJobService {
  /** The facts of those of the given jobs that are finished (others, and unknown ids, are left out). */
  factsOf(jobIds: readonly string[]): Promise<FinishedJobFact[]>;
  /**
   * A page of finished jobs whose combination is in the catalogue, in id order, starting after
   * `afterId` (from the first when null): page through every one with the last id of each page.
   */
  page(afterId: string | null, limit: number): Promise<FinishedJobFact[]>;
}
export const FinishedJobs = token<FinishedJobService>('FinishedJobs');

interface FactRow {
  id: string;
  user_id: number;
  workflow_id: number | null;
  status: 'succeeded' | 'failed';
  day: string;
}

const toFact = (r: FactRow): FinishedJobFact => ({
  id: r.id,
  userId: Number(r.user_id),
  workflowId: r.workflow_id === null ? null : Number(r.workflow_id),
  status: r.status,
  day: r.day,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The catalogue (owner of combinations) names a job's workflow: `catalogue.workflowOf`. */
export function finishedJobs(db: Db, catalogue: CombinationWorkflowsService): FinishedJobService {
  const workflow = catalogue.workflowOf(sql.ref('j.combination_id'));
  const factColumns = sql`j.id::text as id, j.user_id, ${workflow} as workflow_id, j.status,
  to_char(coalesce(j.completed_at, j.created_at) at time zone 'UTC', 'YYYY-MM-DD') as day`;
  return {
    async factsOf(jobIds) {
      // an id that is not a uuid names no job (and would fail the cast)
      const ids = jobIds.filter((id) => UUID.test(id));
      if (ids.length === 0) return [];
      const rows = await sql<FactRow>`select ${factColumns}
          from automation_jobs j
          where j.id = any(cast(${ids} as uuid[])) and j.status in ('succeeded', 'failed')`.execute(db);
      return rows.rows.map(toFact);
    },
    async page(afterId, limit) {
      if (afterId !== null && !UUID.test(afterId)) throw new Error(`"${afterId}" is not a job id.`);
      const after = afterId === null ? sql`` : sql`and j.id > cast(${afterId} as uuid)`;
      // only jobs whose combination is in the catalogue (its workflow is never null there)
      const rows = await sql<FactRow>`select ${factColumns}
          from automation_jobs j
          where j.status in ('succeeded', 'failed') and ${workflow} is not null ${after}
          order by j.id limit ${Math.max(1, Math.floor(limit))}`.execute(db);
      return rows.rows.map(toFact);
    },
  };
}
