import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../../../core/event-bus';
import { PermanentStepError } from '../../../automation/errors';
import type { ActionContext, FileRef } from '../../../automation/kinds';
import { defineAction } from '../../../automation/steps';
import type { StoredDocumentExtractor } from '../../services';
import type { FileStore } from '../../../files/file-store';
import type { OcrEngine } from '../../ocr';
import { runExtractionJob } from './extraction-job';
import { isReadableKind, notADocumentMessage, READABLE_KINDS, type ReadableKind, type ReadResult, type StoredDocument } from './read-stored-document';

/** The services an extraction step needs besides its context: the OCR pool and the event bus. */
export interface ExtractionServices {
  ocr: OcrEngine;
  events: Pick<EventBus, 'publish'>;
}

/** One document an extraction step read: where it is, and the extractor's result, shaped by the plugin. */
export type ExtractedDocument<S> = { name: string; bucket: string; key: string; pages: number } & S;

/**
 * The files a step works on: those the previous step passed on (a download step's `files`),
 * otherwise the files the run started with (an upload, an e-mail's attachments, a webhook).
 */
export function stepFiles(input: unknown, ctx: Pick<ActionContext, 'trigger'>): FileRef[] {
  const given = (input as { files?: unknown } | null)?.files;
  if (Array.isArray(given) && given.every(isFileRef)) return given;
  return ctx.trigger.files;
}

function isFileRef(value: unknown): value is FileRef {
  const f = value as FileRef;
  return !!f && typeof f === 'object' && typeof f.bucket === 'string' && typeof f.key === 'string' && typeof f.name === 'string';
}

/**
 * A stored-document extractor over the shared job code (provided by the extraction plugins as
 * InvoiceExtraction / DocumentExtraction): reads the owner's document — PDF text layer, OCR for
 * scans and images — and applies `extract` to its pages. The job code publishes
 * 'document/text-extracted', so the search indexes what was read.
 */
export function storedDocumentExtractor<R>(
  deps: ExtractionServices & { files: FileStore; kinds?: readonly ReadableKind[] },
  extract: (pages: ReadResult['pages'], doc: StoredDocument) => R,
): StoredDocumentExtractor<R> {
  return {
    kinds: deps.kinds ?? READABLE_KINDS,
    async extract(owner, file, opts = {}) {
      const outcome = await runExtractionJob(
        { owner, bucket: file.bucket, key: file.key, queuedAt: Date.now() },
        { id: opts.jobId ?? `direct-${randomUUID()}`, attempt: opts.attempt ?? 1, progress: async (pct) => opts.progress?.(pct) },
        { files: deps.files, ocr: deps.ocr, events: deps.events, kinds: deps.kinds },
        extract,
      );
      return outcome.ok ? { ok: true, name: outcome.name, pages: outcome.pages, result: outcome.result } : { ok: false, message: outcome.message };
    },
  };
}

/**
 * An engine action that reads each document of the run with `extractor` and returns
 * `{ documents: [...], count }` plus the first document's shaped result at the top level, which
 * is what single-document recipes (and the Sheets / Xero steps) read. A file that is not a
 * document, or cannot be read, fails the step at once (trying again cannot help).
 */
export function extractionAction<R, S extends object>(opts: {
  provider: string;
  action: string;
  title: string;
  description?: string;
  extractor: StoredDocumentExtractor<R>;
  shape: (result: R) => S;
}) {
  return defineAction<Record<string, unknown>, unknown, { count: number; documents: ExtractedDocument<S>[] } & Partial<ExtractedDocument<S>>>({
    provider: opts.provider,
    action: opts.action,
    title: opts.title,
    description: opts.description,
    async run(input, ctx) {
      const files = stepFiles(input, ctx);
      const kinds = opts.extractor.kinds ?? READABLE_KINDS;
      const wanted = kinds.includes('xml') ? 'a PDF, PNG or JPEG document, or an XML e-invoice' : 'a PDF, PNG or JPEG document';
      if (!files.length) throw new PermanentStepError(`This step reads a document, but the run brought no file: upload ${wanted}.`);
      const readable = files.filter((f) => isReadableKind(f.kind, kinds));
      if (!readable.length) throw new PermanentStepError(`${notADocumentMessage(kinds)} Got ${files.map((f) => `"${f.name}"`).join(', ')}.`);
      for (const f of files.filter((x) => !isReadableKind(x.kind, kinds))) ctx.log.warn(`Skipped "${f.name}": not ${wanted}.`);
      const documents: ExtractedDocument<S>[] = [];
      for (const [i, file] of readable.entries()) {
        if (ctx.signal.aborted) throw new Error('The step was stopped before every document was read.');
        const share = (pct: number) => ctx.progress(Math.round(((i + pct / 100) / readable.length) * 100));
        const outcome = await opts.extractor.extract(ctx.userId, file, { jobId: ctx.jobId, attempt: ctx.attempt, progress: share });
        if (!outcome.ok) throw new PermanentStepError(`"${file.name}": ${outcome.message}`);
        documents.push({ name: outcome.name, bucket: file.bucket, key: file.key, pages: outcome.pages, ...opts.shape(outcome.result) });
      }
      ctx.progress(100);
      return { ...documents[0], count: documents.length, documents };
    },
  });
}
