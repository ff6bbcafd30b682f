import { HttpError, notFound } from '../../../http/errors';
import type { JobQueue, JobRecord } from '../../../queue/job-queue';
import { stageOf, type ExtractionJobData, type ExtractionOutcome } from './extraction-job';

export type ExtractionStatus = 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED';

export const JOB_NOT_FOUND_MESSAGE = 'No extraction job with this id was found for your account.';
export const JOB_FAILED_MESSAGE = 'The document could not be processed because the extraction job failed. Please try again.';

/** What the status call tells the page about a job. */
export interface JobView<R> {
  Job_ID: string;
  Status: ExtractionStatus;
  /** 0..100 */
  progress: number;
  /** What is happening, or why the job failed. */
  message: string;
  data: ExtractionJobData;
  /** Present when SUCCEEDED. */
  outcome?: Extract<ExtractionOutcome<R>, { ok: true }>;
}

/**
 * The caller's job of the given name. Another user's job, a job of another kind (a mail job,
 * say) and an unknown id all answer the same 404, so job ids reveal nothing.
 */
export async function ownedJob(queue: JobQueue, jobId: string, owner: number, jobName: string): Promise<JobRecord<ExtractionJobData>> {
  const job = await queue.get(jobId);
  const data = job?.data as Partial<ExtractionJobData> | undefined;
  if (!job || job.name !== jobName || data?.owner !== owner) throw notFound(JOB_NOT_FOUND_MESSAGE);
  return job as JobRecord<ExtractionJobData>;
}

/**
 * A job as the extraction pages see it: IN_PROGRESS while queued or running (and not past its
 * time limit), SUCCEEDED with its result, FAILED with a sentence saying why.
 */
export function viewOf<R>(job: JobRecord<ExtractionJobData>, now = Date.now()): JobView<R> {
  const base = { Job_ID: job.id, data: job.data };
  if (job.status === 'completed') {
    const outcome = job.result as ExtractionOutcome<R> | undefined;
    if (outcome?.ok) return { ...base, Status: 'SUCCEEDED', progress: 100, message: 'Done', outcome };
    return { ...base, Status: 'FAILED', progress: 100, message: outcome?.message ?? JOB_FAILED_MESSAGE };
  }
  if (job.status === 'failed') return { ...base, Status: 'FAILED', progress: job.progress ?? 0, message: JOB_FAILED_MESSAGE };
  const deadline = job.data.deadline;
  if (deadline !== undefined && now > deadline) {
    const minutes = Math.max(1, Math.round((deadline - job.data.queuedAt) / 60_000));
    return {
      ...base,
      Status: 'FAILED',
      progress: job.progress ?? 0,
      message: `The extraction took longer than its ${minutes}-minute limit and was stopped. Try a smaller or clearer document.`,
    };
  }
  const progress = job.progress ?? 0;
  return { ...base, Status: 'IN_PROGRESS', progress, message: stageOf(progress) };
}

/** The HTTP error for a job that did not succeed: 422 with its message, or 409 while it runs. */
export function notSucceeded(view: JobView<unknown>): HttpError {
  if (view.Status === 'FAILED') return new HttpError(422, view.message, { Job_ID: view.Job_ID, Status: 'FAILED' });
  return new HttpError(409, 'The extraction has not finished yet; ask for its status again in a few seconds.', {
    Job_ID: view.Job_ID,
    Status: 'IN_PROGRESS',
    progress: view.progress,
  });
}

/**
 * Waits for a job to finish (or for `timeoutMs`), checking every `everyMs`. The work runs in
 * the queue's handler; this only watches, so a request can offer a synchronous reply.
 */
export async function waitForJob(queue: JobQueue, id: string, timeoutMs: number, everyMs = 200): Promise<JobRecord | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await queue.get(id);
    if (!job || job.status === 'completed' || job.status === 'failed' || Date.now() >= until) return job;
    await new Promise((resolve) => setTimeout(resolve, Math.min(everyMs, Math.max(0, until - Date.now()))));
  }
}
