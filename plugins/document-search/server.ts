import { defineServerPlugin, DocumentSearch, type DocumentSearchService } from '../../src/server';
import { contribute, WorkflowUploads } from '../../src/server';
import { documentSearchSteps } from './automation-actions';
import { provide } from '../../src/core';
import { token } from '../../src/core';
import { T } from '../../src/server';
import { userOf } from '../../src/server';
import { HttpError } from '../../src/server';
import { downloadUrl } from '../../src/server';
import querySchema from '../../schemas/document-search/query.schema.json';
import indexFileSchema from '../../schemas/document-search/index-file.schema.json';
import { catalogue } from './catalogue';
import { DocumentIndex, DocumentIndexToken, documentSearchMigrations, EmptyDocumentError } from './index-service';
import { DocumentIndexer } from './indexer';
import { documentText, UnreadableDocumentError, UnsearchableFileError } from './document-text';
import { readPdfText } from './pdf-text';
import { pagesToOcr, pdfTextPages } from './scanned-text';
import { documentIndexingMigration, pagesLeftOut, READ_SCAN_JOB, runReadScanJob, ScanIndexing, type ReadScanJobData } from './scan-indexing';
import { SearchQueryError } from './search-query';

/** The indexer that follows 'file/stored' and 'document/text-extracted' (one per server). */
export const DocumentIndexerToken = token<DocumentIndexer>('DocumentIndexer');

/** Scans handed to OCR and the search page's list of documents (one per server). */
export const ScanIndexingToken = token<ScanIndexing>('DocumentSearchScanIndexing');

/** How many results a search returns. */
export const RESULTS_PER_SEARCH = 10;

/** This plugin's own errors carry a status; give them to the client as `{ status: 'error', message }`. */
function asHttpError(error: unknown): unknown {
  if (
    error instanceof SearchQueryError ||
    error instanceof EmptyDocumentError ||
    error instanceof UnreadableDocumentError ||
    error instanceof UnsearchableFileError
  ) {
    return new HttpError(error.statusCode, error.message);
  }
  return error;
}

/**
 * The index as the DocumentSearch service: search and add, and the search page's reply (the
 * best RESULTS_PER_SEARCH results, each with a download link bound to the caller's session).
 */
export function documentSearchService(index: DocumentIndex, secretKey: string): DocumentSearchService {
  return {
    search: (owner, query, limit) => index.search(owner, query, limit),
    index: (doc) => index.index(doc),
    async query(user, query) {
      const hits = await index.search(user.id, query, RESULTS_PER_SEARCH).catch((e) => Promise.reject(asHttpError(e)));
      return {
        results: hits.map((hit) => ({ document: hit.name, documentText: hit.passage, documentUri: downloadUrl(user, hit, secretKey) })),
      };
    },
  };
}

/**
 * Intelligent (natural-language) document search: workflow 10011 and combination 5. The
 * automation engine's flowmatic_ai:index_document step adds a run's documents to the same index.
 */
export default defineServerPlugin({
  id: 'document-search',
  catalogue,
  contributes: [contribute(WorkflowUploads, { workflow: 10011, kinds: ['pdf', 'png', 'jpeg', 'txt', 'xml'] })],
  migrations: [...documentSearchMigrations, documentIndexingMigration],
  provides: [
    provide(DocumentIndexToken, (get) => new DocumentIndex(get(T.Db))),
    // the same index as a plugin-neutral service (src/server): the page's route, the public API and MCP tools search with it
    provide(DocumentSearch, (get) => documentSearchService(get(DocumentIndexToken), get(T.ServerConfig).secretKey)),
    provide(DocumentIndexerToken, (get) => new DocumentIndexer(get(DocumentIndexToken), get(T.FileStore), readPdfText, get(T.Logger))),
    provide(ScanIndexingToken, (get) => new ScanIndexing(get(T.Db), get(T.JobQueue))),
  ],
  needs: {
    index: DocumentIndexToken,
    search: DocumentSearch,
    indexer: DocumentIndexerToken,
    files: T.FileStore,
    events: T.EventBus,
    scans: ScanIndexingToken,
    ocr: T.Ocr,
  },
  steps: ({ index, files, ocr }) => documentSearchSteps({ index, files, readPdf: readPdfText, ocr }),
  routes(app, { index, search, files, scans }) {
    app.post<{ Body: { query: string } }>(
      '/api/nlp-document-store/query',
      { auth: 'user', schema: { body: querySchema }, config: { rateLimit: { max: 120, timeWindow: '1 minute' } } },
      async (request) => search.query(userOf(request), request.body.query),
    );

    // the search page adds an upload: a text file or a PDF with a text layer at once; a scan (an
    // image, or a PDF with pages without text) is read by OCR in a job, and the list shows it
    // 'indexing' until it is searchable
    app.post<{ Body: { key: string; bucket: string } }>(
      '/api/plugins/document-search/index',
      { auth: 'user', schema: { body: indexFileSchema }, config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
      async (request) => {
        const user = userOf(request);
        const { key, bucket } = request.body;
        try {
          const meta = await files.stat(user.id, bucket, key);
          const scan: ReadScanJobData = { owner: user.id, bucket, key, name: meta.originalName };
          if (meta.kind === 'png' || meta.kind === 'jpeg') {
            await scans.start(scan);
            return { document: meta.originalName, indexing: true };
          }
          if (meta.kind !== 'pdf') {
            const text = await documentText(meta.kind, await files.read(user.id, bucket, key), readPdfText, meta.originalName);
            const { words } = await index.index({ owner: user.id, bucket, key, name: meta.originalName, text });
            return { document: meta.originalName, words };
          }
          const layer = await pdfTextPages(await files.read(user.id, bucket, key)).catch((error: unknown) => {
            throw new UnreadableDocumentError(error instanceof Error && error.message ? error.message : 'The PDF could not be read.');
          });
          if (pagesToOcr(layer.pages).length > 0) {
            await scans.start(scan);
            return { document: meta.originalName, indexing: true };
          }
          const text = layer.pages.filter((page) => page !== '').join('\n\n');
          if (text.trim() === '') throw new UnreadableDocumentError('The PDF has no text to search.');
          const { words } = await index.index({ owner: user.id, bucket, key, name: meta.originalName, text });
          return {
            document: meta.originalName,
            words,
            ...(layer.pages.length < layer.pageCount ? { message: pagesLeftOut(layer.pages.length, layer.pageCount) } : {}),
          };
        } catch (error) {
          throw asHttpError(error);
        }
      },
    );

    // the search page's list: scans being read (with their progress) or refused, then searchable documents
    app.get('/api/plugins/document-search/documents', { auth: 'user', config: { rateLimit: { max: 240, timeWindow: '1 minute' } } }, async (request) => ({
      documents: await scans.list(userOf(request).id),
    }));
  },
  jobs: {
    [READ_SCAN_JOB]: (data, { files, ocr, index, scans }, job) => runReadScanJob(data as ReadScanJobData, job, { files, ocr, index, scans }),
  },
  onStart({ indexer, events }) {
    indexer.start(events);
  },
  async onStop({ indexer }) {
    await indexer.stop();
  },
});
