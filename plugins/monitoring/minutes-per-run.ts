import { sql, type Kysely } from 'kysely';
import type { CatalogueContribution } from '../../src/server';
import { DEFAULT_MINUTES_PER_RUN } from './records';

/**
 * Writes each contributed workflow's minutes_per_run (catalogue field) into the workflows table,
 * after the catalogue has been seeded, so a request reads it with the workflow row. A workflow
 * that does not say gets null (read as the default).
 */
export async function syncMinutesPerRun(db: Kysely<any>, catalogues: Array<CatalogueContribution | undefined>): Promise<number> {
  let written = 0;
  for (const c of catalogues) {
    for (const w of c?.workflows ?? []) {
      const minutes = w.minutes_per_run ?? null;
      const res = await sql`update workflows set minutes_per_run = ${minutes} where id = ${w.id} and minutes_per_run is distinct from ${minutes}`.execute(db);
      written += Number(res.numAffectedRows ?? 0);
    }
  }
  return written;
}

/** A workflow's minutes per run, or null when no such workflow exists. */
export async function minutesPerRunOf(db: Kysely<any>, workflowId: number): Promise<number | null> {
  const row = (
    await sql<{
      minutes_per_run: number | null;
    }>`select minutes_per_run from workflows where id = ${workflowId}`.execute(db)
  ).rows[0];
  if (!row) return null;
  return row.minutes_per_run === null ? DEFAULT_MINUTES_PER_RUN : Number(row.minutes_per_run);
}
