import { token } from '../../core/di';
import type { Db } from '../db/database';

/** A workflow's time figures, read through the catalogue (which owns the workflows table). */
export interface WorkflowTimesService {
  /**
   * The minutes one successful run of the workflow saves: null when its catalogue entry does not
   * say, undefined when no such workflow was ever seeded. Hidden workflows answer too (their
   * runs' history is still shown).
   */
  minutesPerRun(workflowId: number): Promise<number | null | undefined>;
}
export const WorkflowTimes = token<WorkflowTimesService>('WorkflowTimes');

export function workflowTimes(db: Db): WorkflowTimesService {
  return {
    async minutesPerRun(workflowId) {
      const row = await db.selectFrom('workflows').select('minutes_per_run').where('id', '=', workflowId).executeTakeFirst();
      if (!row) return undefined;
      return row.minutes_per_run === null ? null : Number(row.minutes_per_run);
    },
  };
}
