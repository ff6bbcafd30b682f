import { AI_PROVIDER, defineAction, PermanentStepError, type ActionContext, type FileRef, type FileStore } from '../../src/server';
import { EmptyDocumentError, type DocumentIndex } from './index-service';
import { documentText, SEARCHABLE_KINDS, UnreadableDocumentError, UnsearchableFileError, type PdfTextReader } from './document-text';

/** What the indexing step needs from the running plugin. */
export interface IndexStepServices {
  index: Pick<DocumentIndex, 'index'>;
  readPdf: PdfTextReader;
  files?: FileStore;
}

function filesOf(input: unknown, ctx: ActionContext): FileRef[] {
  const given = (input as { files?: unknown } | null)?.files;
  return Array.isArray(given) ? (given as FileRef[]) : ctx.trigger.files;
}

/**
 * flowmatic_ai:index_document: adds each document of the run (a Drive download, an upload) to
 * the owner's searchable store, the same index the search page queries. Indexing the same file
 * again replaces its entry, so a retried step leaves one. A file that cannot be searched (not a
 * PDF or text file, no text) fails the step at once with the reason.
 */
export function documentSearchSteps(services: IndexStepServices) {
  return [
    defineAction({
      provider: AI_PROVIDER,
      action: 'index_document',
      title: 'Add the document to the search',
      description: "Adds each PDF or text file of the run to the owner's searchable documents.",
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
        if (!refs.length)
          throw new PermanentStepError(`This step indexes a document, but the run brought no file: add a ${SEARCHABLE_KINDS.join(' or ')} file.`);
        const indexed: Array<{ document: string; bucket: string; key: string; words: number }> = [];
        for (const ref of refs) {
          try {
            const meta = await files.stat(ctx.userId, ref.bucket, ref.key);
            const text = await documentText(meta.kind, await files.read(ctx.userId, ref.bucket, ref.key), readPdf);
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
