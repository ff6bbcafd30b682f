import {
  AI_PROVIDER,
  defineAction,
  DocumentReadError,
  PermanentStepError,
  type ActionContext,
  type FileRef,
  type FileStore,
  type OcrEngine,
} from '../../src/server';
import { EmptyDocumentError, type DocumentIndex } from './index-service';
import { documentText, UnreadableDocumentError, UnsearchableFileError, type PdfTextReader } from './document-text';
import { readScannedText } from './scanned-text';
import { NO_TEXT_READ } from './scan-indexing';

/** What the indexing step needs from the running plugin. */
export interface IndexStepServices {
  index: Pick<DocumentIndex, 'index'>;
  readPdf: PdfTextReader;
  files?: FileStore;
  /** Reads scans (images, PDF pages without text); without it only text files and text-layer PDFs are indexed. */
  ocr?: OcrEngine;
}

/** A stored file's text: plain text, a PDF's text layer, or (with an OCR engine) a scan read by OCR. */
async function textOf(kind: Parameters<typeof documentText>[0], bytes: Buffer, services: IndexStepServices): Promise<string> {
  const { ocr, readPdf } = services;
  if (!ocr || !(kind === 'png' || kind === 'jpeg' || kind === 'pdf')) return documentText(kind, bytes, readPdf);
  // a PDF keeps its text layer; only its pages without one (and images) go through OCR
  let read;
  try {
    read = await readScannedText(kind, bytes, ocr);
  } catch (error) {
    if (error instanceof DocumentReadError) throw new UnreadableDocumentError(error.message);
    throw error;
  }
  if (read.text.trim() === '') throw new UnreadableDocumentError(NO_TEXT_READ);
  return read.text;
}

function filesOf(input: unknown, ctx: ActionContext): FileRef[] {
  const given = (input as { files?: unknown } | null)?.files;
  return Array.isArray(given) ? (given as FileRef[]) : ctx.trigger.files;
}

/**
 * flowmatic_ai:index_document: adds each document of the run (a Drive download, an upload) to
 * the owner's searchable store, the same index the search page queries. Indexing the same file
 * again replaces its entry, so a retried step leaves one. A scan (an image, PDF pages without
 * text) is read by OCR inside the step (it runs in the engine's job, off the request thread). A
 * file that cannot be searched (another kind, no text) fails the step at once with the reason.
 */
export function documentSearchSteps(services: IndexStepServices) {
  return [
    defineAction({
      provider: AI_PROVIDER,
      action: 'index_document',
      title: 'Add the document to the search',
      description: "Adds each PDF, text or image file of the run to the owner's searchable documents (scans are read by OCR).",
      output: {
        type: 'object',
        required: ['indexed', 'count'],
        properties: {
          indexed: {
            type: 'array',
            items: {
              type: 'object',
              properties: { document: { type: 'string' }, bucket: { type: 'string' }, key: { type: 'string' }, words: { type: 'integer' } },
            },
          },
          count: { type: 'integer' },
        },
      },
      async run(input, ctx) {
        const { index, readPdf, files = ctx.files } = services;
        const refs = filesOf(input, ctx);
        if (!refs.length) throw new PermanentStepError('This step indexes a document, but the run brought no file: add a PDF, text or image file.');
        const indexed: Array<{ document: string; bucket: string; key: string; words: number }> = [];
        for (const ref of refs) {
          try {
            const meta = await files.stat(ctx.userId, ref.bucket, ref.key);
            const text = await textOf(meta.kind, await files.read(ctx.userId, ref.bucket, ref.key), { ...services, readPdf });
            const { words } = await index.index({ owner: ctx.userId, bucket: ref.bucket, key: ref.key, name: meta.originalName, text });
            indexed.push({ document: meta.originalName, bucket: ref.bucket, key: ref.key, words });
          } catch (error) {
            if (error instanceof EmptyDocumentError || error instanceof UnreadableDocumentError || error instanceof UnsearchableFileError) {
              throw new PermanentStepError(`"${ref.name}": ${error.message}`);
            }
            throw error;
          }
        }
        return { indexed, count: indexed.length };
      },
    }),
  ];
}
