import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { JobQueue } from '../queue/job-queue';
import { queueMail } from '../mail';
import type { JobRow } from './job-store';
import type { RunnerLog } from './runner';
import type { RecipeRow } from './user-recipes';

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

/** A failed job's notice to its recipe's owner (the starter's failures name the combination set up); a mail that cannot be queued is logged. */
export async function noticeOfFailure(
  deps: { db: Db; queue: JobQueue; publicUrl: string; intervalMs: number; log: Pick<RunnerLog, 'error'> },
  job: Pick<JobRow, 'id' | 'trigger_payload'>,
  recipe: Pick<RecipeRow, 'id' | 'name' | 'combinationId' | 'email'>,
  error: string | null,
): Promise<void> {
  const combinationId = recipe.combinationId || Number(job.trigger_payload?.data?.combination_id) || 0;
  try {
    await sendFailureNotice(deps, {
      recipeId: recipe.id,
      recipeName: recipe.name,
      combinationId,
      jobId: job.id,
      to: recipe.email,
      error: error ?? 'Unknown error',
    });
  } catch (e) {
    deps.log.error({ err: e, jobId: job.id }, 'Could not queue the failure e-mail');
  }
}

/** Posts a recipe's start to CHAT_WEBHOOK_URL (server-side); failures are logged only (spec section 8). */
export async function announceStart(
  deps: { chatWebhookUrl?: string; fetch?: typeof fetch; log: Pick<RunnerLog, 'warn'> },
  recipe: Pick<RecipeRow, 'id' | 'name' | 'email' | 'managedUserId'>,
): Promise<void> {
  const url = deps.chatWebhookUrl;
  if (!url) return;
  const body = {
    text: `Recipe ${recipe.id} ("${recipe.name}") was started by ${recipe.email} (workato id ${recipe.managedUserId}).`,
    workato_id: recipe.managedUserId,
    recipe_id: recipe.id,
    email: recipe.email,
  };
  try {
    const res = await (deps.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) deps.log.warn({ status: res.status }, `The chat webhook answered ${res.status}`);
  } catch (e) {
    deps.log.warn({ err: e }, `The chat webhook could not be reached: ${(e as Error).message}`);
  }
}
