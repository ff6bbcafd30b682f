import type { FileStore, StoredFile } from '../../../files/file-store';
import { HttpError } from '../../../http/errors';
import type { JobQueue } from '../../../queue/job-queue';
import type { ExtractionJobData } from './extraction-job';
import { isReadableKind, notADocumentMessage, type ReadableKind } from './read-stored-document';

/** Tries per job: one retry for a crash (an OCR worker dying); unreadable documents are not retried. */
const ATTEMPTS = 2;

/**
 * Checks the caller's file before any work is queued: it must exist under the caller (another
 * user's key is "not found", 404) and be of the kinds the workflow reads: a PDF, PNG or JPEG, and
 * for invoices an XML e-invoice too (415 otherwise).
 */
export async function documentOf(files: FileStore, owner: number, bucket: string, key: string, kinds?: readonly ReadableKind[]): Promise<StoredFile> {
  const meta = await files.stat(owner, bucket, key);
  if (!isReadableKind(meta.kind, kinds)) throw new HttpError(415, notADocumentMessage(kinds));
  return meta;
}

/**
 * Queues an extraction job for the caller's file and returns its id. `timeoutMinutes` sets the
 * time after which the status call reports the job FAILED.
 */
export async function startExtraction(
  queue: JobQueue,
  jobName: string,
  file: { owner: number; bucket: string; key: string },
  timeoutMinutes?: number,
): Promise<string> {
  const queuedAt = Date.now();
  const data: ExtractionJobData = {
    owner: file.owner,
    bucket: file.bucket,
    key: file.key,
    queuedAt,
    ...(timeoutMinutes !== undefined ? { deadline: queuedAt + timeoutMinutes * 60_000 } : {}),
  };
  return queue.add(jobName, data, { attempts: ATTEMPTS, backoffMs: 1000 });
}
