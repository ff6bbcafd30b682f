import { sql, type Expression, type RawBuilder } from 'kysely';
import { token } from '../../core/di';

/**
 * A combination's workflow for other modules' queries, spelled by the catalogue (which owns the
 * combinations table): a scalar subquery to place in one set-based query, so a module that keeps
 * combination ids (the automation module's jobs) never names the table itself.
 */
export interface CombinationWorkflowsService {
  /**
   * The workflow id of the combination `combinationId` refers to (a column of the caller's query,
   * `sql.ref('j.combination_id')`); null when that combination is not in the catalogue.
   */
  workflowOf(combinationId: Expression<number>): RawBuilder<number | null>;
}
export const CombinationWorkflows = token<CombinationWorkflowsService>('CombinationWorkflows');

export function combinationWorkflows(): CombinationWorkflowsService {
  return {
    workflowOf: (combinationId) => sql<number | null>`(select cw.workflow_id from combinations cw where cw.id = ${combinationId})`,
  };
}
