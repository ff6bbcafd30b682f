import { sql, type QueryExecutorProvider } from 'kysely';
import { DocumentReadError, HttpError, type FileStore, type JobQueue, type OcrEngine } from '../../src/server';
import { EmptyDocumentError, type DocumentIndex } from './index-service';
import { UnreadableDocumentError } from './document-text';
import { MAX_OCR_PAGES, readScannedText } from './scanned-text';

/** The job that reads a scanned upload with OCR and adds it to the index. */
export const READ_SCAN_JOB = 'document-search.read-scan';

/** Tries of a read-scan job (an OCR engine that failed to start is tried again). */
export const READ_SCAN_ATTEMPTS = 2;

export const NO_TEXT_READ = 'No text could be read on this scan, so there is nothing to search in it.';
export const SCAN_FAILED = 'This scan could not be read. Please upload it again.';

/** What the job is given: the owner's stored file and the name to show. */
export interface ReadScanJobData {
  owner: number;
  bucket: string;
  key: string;
  name: string;
}

/** A document of the search page's list: being read, searchable, or refused with the reason. */
export interface ListedDocument {
  document: string;
  status: 'indexing' | 'searchable' | 'failed';
  /** Share of the scan read so far, 0..100, while indexing. */
  progress?: number;
  /** A sentence for the user: why it failed, or which pages were left out. */
  message?: string;
  /** How many times this file was uploaded (the same file twice is one document). */
  uploads: number;
}

/** How many documents the list shows. */
export const LISTED_DOCUMENTS = 20;

/**
 * The state of each scan handed to OCR: 'indexing' while its job runs, 'indexed' (with a note
 * when pages were left out) or 'failed' (with the reason). Text-layer files never appear here.
 */
export const documentIndexingMigration = {
  id: 'document-search/0006_indexing_states',
  async up(db: QueryExecutorProvider): Promise<void> {
    await sql`create table document_indexing (
      owner integer not null,
      bucket text not null,
      key text not null,
      name text not null,
      job_id text,
      state text not null check (state in ('indexing', 'indexed', 'failed')),
      message text,
      created_at timestamptz not null default now(),
      primary key (owner, bucket, key)
    )`.execute(db);
    await sql`create index document_indexing_owner_idx on document_indexing (owner, created_at)`.execute(db);
  },
};

/** The sentence for a scan whose later pages were not read. */
export function pagesLeftOut(pagesRead: number, pageCount: number): string {
  return `The first ${pagesRead} of ${pageCount} pages were read; the later pages are not searchable.`;
}

/** Scans handed to OCR and the search page's list of documents. */
export class ScanIndexing {
  constructor(
    private readonly db: QueryExecutorProvider,
    private readonly queue: Pick<JobQueue, 'add' | 'get'>,
  ) {}

  /**
   * Queues the OCR of a stored scan, once per file: asking again while it is read, or once it is
   * searchable, changes nothing; asking again after it failed reads it again.
   */
  async start(data: ReadScanJobData): Promise<void> {
    const { rows } = await sql<{ state: string }>`select state from document_indexing
      where owner = ${data.owner} and bucket = ${data.bucket} and key = ${data.key}`.execute(this.db);
    const previous = rows[0]?.state;
    if (previous === 'indexing' || previous === 'indexed') return;
    // the row first: a job that ends at once finds it to record its outcome
    await sql`insert into document_indexing (owner, bucket, key, name, job_id, state)
      values (${data.owner}, ${data.bucket}, ${data.key}, ${data.name}, null, 'indexing')
      on conflict (owner, bucket, key) do update set name = excluded.name, job_id = null, state = 'indexing', message = null, created_at = now()
      where document_indexing.state = 'failed'`.execute(this.db);
    const once = `${READ_SCAN_JOB}:${data.owner}:${data.bucket}:${data.key}`;
    let jobId: string;
    try {
      jobId = await this.queue.add(READ_SCAN_JOB, data, { jobId: previous === 'failed' ? `${once}:${Date.now()}` : once, attempts: READ_SCAN_ATTEMPTS });
    } catch (error) {
      await this.finish(data, 'failed', SCAN_FAILED);
      throw error;
    }
    await sql`update document_indexing set job_id = ${jobId}
      where owner = ${data.owner} and bucket = ${data.bucket} and key = ${data.key}`.execute(this.db);
  }

  /** Records how the job ended. */
  async finish(data: ReadScanJobData, state: 'indexed' | 'failed', message: string | null): Promise<void> {
    await sql`update document_indexing set state = ${state}, message = ${message}
      where owner = ${data.owner} and bucket = ${data.bucket} and key = ${data.key}`.execute(this.db);
  }

  /**
   * The owner's newest documents, newest first: scans still being read or refused, then the
   * searchable ones (the same file uploaded twice once, with its number of uploads).
   */
  async list(owner: number): Promise<ListedDocument[]> {
    const { rows: states } = await sql<{ bucket: string; key: string; name: string; job_id: string | null; state: string; message: string | null }>`
      select bucket, key, name, job_id, state, message from document_indexing
      where owner = ${owner} order by created_at desc limit ${LISTED_DOCUMENTS * 2}`.execute(this.db);
    const stateOf = new Map(states.map((s) => [`${s.bucket}\n${s.key}`, s]));
    const listed: ListedDocument[] = [];
    for (const s of states) {
      if (s.state === 'failed') listed.push({ document: s.name, status: 'failed', message: s.message ?? SCAN_FAILED, uploads: 1 });
      if (s.state !== 'indexing') continue;
      const job = s.job_id ? await this.queue.get(s.job_id) : undefined;
      if (job?.status === 'failed') listed.push({ document: s.name, status: 'failed', message: SCAN_FAILED, uploads: 1 });
      else listed.push({ document: s.name, status: 'indexing', progress: Math.round(job?.progress ?? 0), uploads: 1 });
    }
    // an owner's newest documents by the (owner, id) index; the same name and text is one document
    const { rows } = await sql<{ bucket: string; key: string; name: string; digest: string }>`
      select d.bucket, d.key, d.name, md5(d.name || E'\n' || d.text) as digest
      from (select * from documents where owner = ${owner} order by id desc limit ${LISTED_DOCUMENTS * 3}) d
      order by d.id desc`.execute(this.db);
    const byDigest = new Map<string, ListedDocument>();
    for (const r of rows) {
      const state = stateOf.get(`${r.bucket}\n${r.key}`);
      if (state && state.state !== 'indexed') continue; // being read again: listed above
      const seen = byDigest.get(r.digest);
      if (seen) {
        seen.uploads++;
        continue;
      }
      const doc: ListedDocument = { document: r.name, status: 'searchable', uploads: 1, ...(state?.message ? { message: state.message } : {}) };
      byDigest.set(r.digest, doc);
      listed.push(doc);
    }
    return listed.slice(0, LISTED_DOCUMENTS);
  }
}

/** The part of a running job the read-scan job uses. */
export interface ReadScanJobContext {
  /** 1 for the first try. */
  attempt: number;
  /** Reports progress, 0..100. */
  progress(value: number): Promise<void>;
}

export interface ReadScanServices {
  files: FileStore;
  ocr: OcrEngine;
  index: Pick<DocumentIndex, 'index'>;
  scans: Pick<ScanIndexing, 'finish'>;
}

/** A refusal about the file itself: trying again would give the same answer. */
function isAboutTheFile(error: unknown): error is Error {
  return (
    error instanceof DocumentReadError ||
    error instanceof UnreadableDocumentError ||
    error instanceof EmptyDocumentError ||
    (error instanceof HttpError && error.statusCode < 500)
  );
}

/**
 * The read-scan job: OCR of the scan's pages (progress per page), then the index. A file that
 * cannot be read ends the job with the reason in the list; an engine failure is tried again, and
 * on the last try the list says the scan could not be read.
 */
export async function runReadScanJob(data: ReadScanJobData, job: ReadScanJobContext, services: ReadScanServices) {
  const { files, ocr, index, scans } = services;
  try {
    const meta = await files.stat(data.owner, data.bucket, data.key);
    const read = await readScannedText(meta.kind, await files.read(data.owner, data.bucket, data.key), ocr, (done, total) =>
      job.progress(Math.round((100 * done) / Math.max(total, 1))),
    );
    if (read.text.trim() === '') throw new UnreadableDocumentError(NO_TEXT_READ);
    const { words } = await index.index({ owner: data.owner, bucket: data.bucket, key: data.key, name: data.name, text: read.text });
    const note = read.pagesRead < read.pageCount ? pagesLeftOut(read.pagesRead, read.pageCount) : null;
    await scans.finish(data, 'indexed', note);
    return { document: data.name, words, pagesRead: read.pagesRead, pageCount: read.pageCount, ocrPages: read.ocrPages, maxOcrPages: MAX_OCR_PAGES };
  } catch (error) {
    if (isAboutTheFile(error)) {
      await scans.finish(data, 'failed', error instanceof EmptyDocumentError ? NO_TEXT_READ : error.message);
      return { document: data.name, failed: true };
    }
    if (job.attempt >= READ_SCAN_ATTEMPTS) await scans.finish(data, 'failed', SCAN_FAILED);
    throw error;
  }
}
