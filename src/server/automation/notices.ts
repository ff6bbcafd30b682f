import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { JobQueue } from '../queue/job-queue';
import { queueMail } from '../mail';

/** The page of a job in the app: the combination's workflow screen, its jobs tab on the job. */
export function jobLink(publicUrl: string, combinationId: number, jobId: string): string {
  return `${publicUrl}/solutions/combinations/workflow/${combinationId}?job=${jobId}`;
}

/**
 * Tells a recipe's owner that a job failed after its last try: one e-mail, at most one per
 * recipe per interval (a recipe failing 100 times in an hour sends one). The interval is taken
 * atomically in the database, so two processes never both send.
 */
export async function sendFailureNotice(
  deps: { db: Db; queue: JobQueue; publicUrl: string; intervalMs: number },
  notice: { recipeId: number; recipeName: string; combinationId: number; jobId: string; to: string; error: string },
): Promise<boolean> {
  const { rows } = await sql<{ recipe_id: number }>`
    insert into automation_notices (recipe_id, sent_at) values (${notice.recipeId}, now())
    on conflict (recipe_id) do update set sent_at = now()
      where automation_notices.sent_at < now() - ${deps.intervalMs}::double precision * interval '1 millisecond'
    returning recipe_id`.execute(deps.db);
  if (!rows.length) return false;
  const link = jobLink(deps.publicUrl, notice.combinationId, notice.jobId);
  await queueMail(deps.queue, {
    to: notice.to,
    subject: `Your workflow "${notice.recipeName}" failed`,
    text: [
      `A run of your workflow "${notice.recipeName}" failed after all its retries.`,
      '',
      `What went wrong: ${notice.error}`,
      '',
      `See the run and retry it from the failed step: ${link}`,
      '',
      'You will get at most one of these e-mails an hour for this workflow.',
    ].join('\n'),
  });
  return true;
}
