import type { EventBus } from '../../../../core/event-bus';
import type { FileStore } from '../../../files/file-store';
import type { JobQueue } from '../../../queue/job-queue';
import type { OcrEngine } from '../../ocr';
import { readStoredDocument, type ReadableKind, type ReadResult, type StoredDocument } from './read-stored-document';

/** What an extraction job is given: whose file, where it is, and when it must be done by. */
export interface ExtractionJobData {
  owner: number;
  bucket: string;
  key: string;
  /** Epoch ms after which the job is reported FAILED (the request's `timeout`); none = no limit. */
  deadline?: number;
  /** Epoch ms when the job was queued. */
  queuedAt: number;
}

/** A job's result: the extractor's output, or the sentence saying why the document could not be read. */
export type ExtractionOutcome<R> =
  /** pages: the pages in the file; pagesRead: how many of them were read (fewer when the page cap cut a long document) */
  { ok: true; name: string; pages: number; pagesRead: number; ocrPages: number[]; result: R } | { ok: false; message: string; reason: string };

type JobContext = Parameters<Parameters<JobQueue['process']>[1]>[1];

export interface ExtractionJobDeps {
  files: FileStore;
  ocr: OcrEngine;
  events: Pick<EventBus, 'publish'>;
  /** The kinds of file the extractor reads; by default the page documents (READABLE_KINDS). */
  kinds?: readonly ReadableKind[];
}

/** Progress milestones (0..100): reading is most of the work, extracting the fields a moment. */
const PROGRESS = { started: 5, readStart: 10, readEnd: 85, extracted: 95 } as const;

/** The sentence the status call shows for a progress value. */
export function stageOf(progress: number): string {
  if (progress < PROGRESS.readStart) return 'Waiting for the document reader';
  if (progress < PROGRESS.readEnd) return 'Reading the document';
  if (progress < 100) return 'Finding the fields';
  return 'Done';
}

/** Errors that describe the document rather than the system: they end the job with a message. */
function userFacing(error: unknown): { message: string; reason: string } | undefined {
  const e = error as { name?: string; message?: string; reason?: string; statusCode?: number };
  if (e?.name === 'DocumentReadError') return { message: `The document could not be read: ${e.message}`, reason: e.reason ?? 'unreadable' };
  if (e?.name === 'OcrError') return { message: `The text of the document could not be recognised: ${e.message}`, reason: 'ocr' };
  if (e?.name === 'NotADocumentError' || e?.name === 'FileNotFoundError')
    return { message: e.message ?? 'The file was not found.', reason: e.name === 'FileNotFoundError' ? 'missing' : 'unsupported' };
  return undefined;
}

/**
 * Runs one extraction job: reads the owner's stored file (OCR for scans, with progress per
 * page), applies `extract` to the pages (and the document read: its text, the e-invoice data a
 * PDF carries), and publishes 'document/text-extracted' so the search
 * indexes the text. A document that cannot be read ends the job with a readable message (no
 * retry: it would fail the same way); anything else is thrown so the queue retries it.
 */
export async function runExtractionJob<R>(
  data: ExtractionJobData,
  job: JobContext,
  deps: ExtractionJobDeps,
  extract: (pages: ReadResult['pages'], doc: StoredDocument) => R,
): Promise<ExtractionOutcome<R>> {
  if (data.deadline !== undefined && Date.now() > data.deadline) {
    return { ok: false, message: 'The extraction did not start before its time limit; please process the document again.', reason: 'timeout' };
  }
  await job.progress(PROGRESS.started);
  let doc: StoredDocument;
  try {
    doc = await readStoredDocument(
      deps.files,
      deps.ocr,
      data,
      (fraction) => job.progress(Math.round(PROGRESS.readStart + fraction * (PROGRESS.readEnd - PROGRESS.readStart))),
      deps.kinds,
    );
  } catch (error) {
    const known = userFacing(error);
    if (known) return { ok: false, ...known };
    throw error;
  }
  await job.progress(PROGRESS.readEnd);
  const result = extract(doc.read.pages, doc);
  await job.progress(PROGRESS.extracted);
  if (doc.text.trim()) {
    deps.events.publish('document/text-extracted', { owner: data.owner, bucket: data.bucket, key: data.key, name: doc.name, text: doc.text });
  }
  return { ok: true, name: doc.name, pages: doc.read.pageCount, pagesRead: doc.read.pages.length, ocrPages: doc.read.ocrPages, result };
}
