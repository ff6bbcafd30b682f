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
import { SearchQueryError } from './search-query';

/** The indexer that follows 'file/stored' and 'document/text-extracted' (one per server). */
export const DocumentIndexerToken = token<DocumentIndexer>('DocumentIndexer');

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
  contributes: [contribute(WorkflowUploads, { workflow: 10011, kinds: ['pdf', 'txt'] })],
  migrations: documentSearchMigrations,
  provides: [
    provide(DocumentIndexToken, (get) => new DocumentIndex(get(T.Db))),
    // the same index as a plugin-neutral service (src/server): the page's route, the public API and MCP tools search with it
    provide(DocumentSearch, (get) => documentSearchService(get(DocumentIndexToken), get(T.ServerConfig).secretKey)),
    provide(DocumentIndexerToken, (get) => new DocumentIndexer(get(DocumentIndexToken), get(T.FileStore), readPdfText, get(T.Logger))),
  ],
  needs: { index: DocumentIndexToken, search: DocumentSearch, indexer: DocumentIndexerToken, files: T.FileStore, events: T.EventBus },
  steps: ({ index, files }) => documentSearchSteps({ index, files, readPdf: readPdfText }),
  routes(app, { index, search, files }) {
    app.post<{ Body: { query: string } }>(
      '/api/nlp-document-store/query',
      { auth: 'user', schema: { body: querySchema }, config: { rateLimit: { max: 120, timeWindow: '1 minute' } } },
      async (request) => search.query(userOf(request), request.body.query),
    );

    // the search page adds an upload at once and reports what it could not read
    app.post<{ Body: { key: string; bucket: string } }>(
      '/api/plugins/document-search/index',
      { auth: 'user', schema: { body: indexFileSchema }, config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
      async (request) => {
        const user = userOf(request);
        const { key, bucket } = request.body;
        try {
          const meta = await files.stat(user.id, bucket, key);
          const text = await documentText(meta.kind, await files.read(user.id, bucket, key), readPdfText);
          const { words } = await index.index({ owner: user.id, bucket, key, name: meta.originalName, text });
          return { document: meta.originalName, words };
        } catch (error) {
          throw asHttpError(error);
        }
      },
    );
  },
  onStart({ indexer, events }) {
    indexer.start(events);
  },
  async onStop({ indexer }) {
    await indexer.stop();
  },
});
