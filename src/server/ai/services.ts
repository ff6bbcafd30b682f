import { token } from '../../core/di';
import type { AuthUser } from '../auth/guard';
import type { EmotionAnalyser, EmotionResult } from './emotion';
import type { extractDocumentFields, extractInvoice } from './extraction';
import type { ReadableKind } from './extraction/jobs/read-stored-document';

/**
 * The AI features as services, each provided by its plugin under one of these tokens, so the
 * engine's steps, the plugin's own routes and other callers (the public API, MCP tools) use the
 * same instance: `needs: { search: DocumentSearch }`. A token is only bound while its plugin is
 * installed; ask for it only when you depend on that plugin.
 *
 * Besides the data the steps use, each service answers its page's calls in the page route's
 * reply shape (the methods named after the route): the route only reads the request and sends
 * what the method returns, so another caller given the same input gets the same reply. Their
 * refusals are errors with a `statusCode` (HttpError), as the route answers them.
 */

/** The reply of a page call: the JSON body, and its status when it is not 200. */
export interface PageReply<B> {
  status: 200 | 202;
  body: B;
}

/** Sentence-by-sentence emotion labels of a text (plugins/emotion-analysis). */
export interface EmotionAnalysisService extends EmotionAnalyser {
  /** POST /api/api/text_processing_json/: `{ data }`, one label per sentence; empty or too long text is a 400. */
  textProcessing(text: string): Promise<{ data: EmotionResult[] }>;
}
export const EmotionAnalysis = token<EmotionAnalysisService>('EmotionAnalysis');

/** What reading one stored document gave: the extractor's result, or why it could not be read. */
export type DocumentReadOutcome<R> = { ok: true; name: string; pages: number; result: R } | { ok: false; message: string };

/** Reads an owner's stored document (PDF text layer, OCR for scans and images) and extracts from it. */
export interface StoredDocumentExtractor<R> {
  /** The kinds of stored file it reads ('pdf', 'png', 'jpeg'; 'xml' for e-invoices); by default the page documents. */
  readonly kinds?: readonly ReadableKind[];
  extract(
    owner: number,
    file: { bucket: string; key: string },
    opts?: { progress?: (pct: number) => void; jobId?: string; attempt?: number },
  ): Promise<DocumentReadOutcome<R>>;
}

export type InvoiceFields = ReturnType<typeof extractInvoice>;
export type DocumentFields = ReturnType<typeof extractDocumentFields>;

/** The extraction page's request: a stored file of the owner, how long to wait for its job, which workflow's fields. */
export interface ExtractDataRequest {
  key: string;
  bucket: string;
  /** seconds (0: answer at once with the job's progress) */
  wait: number;
  /** 10004 (invoice fields, the default) or 10006 (a document's label / value pairs) */
  workflow?: number | string;
}

/** Invoice fields, line items and warnings of a stored invoice (plugins/invoice-extraction). */
export interface InvoiceExtractionService extends StoredDocumentExtractor<InvoiceFields> {
  /**
   * POST /api/service/extract_data/: queues the reading of the owner's stored file and waits up to
   * `wait` seconds; 200 with the fields (Status SUCCEEDED), or 202 with the job's progress
   * (Status IN_PROGRESS). Another user's file is a 404, a file that is not a document a 415, a
   * failed reading a 422.
   */
  extractData(owner: number, request: ExtractDataRequest): Promise<PageReply<{ Status: string; Job_ID: string } & Record<string, unknown>>>;
}
export const InvoiceExtraction = token<InvoiceExtractionService>('InvoiceExtraction');
/** Label / value pairs of a stored document (plugins/document-extraction). */
export const DocumentExtraction = token<StoredDocumentExtractor<DocumentFields>>('DocumentExtraction');

/** One search result: the document, its best passages (matched words between <mark> and </mark>), the file. */
export interface DocumentSearchHit {
  name: string;
  bucket: string;
  key: string;
  passage: string;
  rank: number;
}

/** One result of the search page: the document's name, its passage and a download link bound to the caller. */
export interface DocumentSearchResult {
  document: string;
  documentText: string;
  documentUri: string;
}

/** Natural-language search over an owner's documents, and adding one to the index (plugins/document-search). */
export interface DocumentSearchService {
  search(owner: number, query: string, limit?: number): Promise<DocumentSearchHit[]>;
  index(doc: { owner: number; bucket: string; key: string; name: string; text: string }): Promise<{ words: number }>;
  /** POST /api/nlp-document-store/query: the page's best results; a query that cannot be read is a 400. */
  query(user: Pick<AuthUser, 'id' | 'session' | 'tokenVersion'>, query: string): Promise<{ results: DocumentSearchResult[] }>;
}
export const DocumentSearch = token<DocumentSearchService>('DocumentSearch');

/** A CSV file given to a comparison. */
export interface CsvInput {
  name: string;
  data: Uint8Array;
}

/**
 * Invoice-to-purchase-order reconciliation (plugins/invoice-reconciliation): compares the
 * invoices with the orders (or the invoice file alone, when it holds both) with the detected
 * settings and with the owner's saved config, as the reconciliation page does. Bad CSV or a bad
 * config throws an error whose `statusCode` is 400.
 */
export interface InvoiceReconciliationService {
  compare(
    owner: number,
    files: { invoices: CsvInput; orders?: CsvInput },
  ): Promise<{
    default: Record<string, unknown>;
    custom_config: Record<string, unknown>;
    /** whether the custom side used the owner's saved config */ config: 'saved config' | 'detected';
  }>;
  /** POST /api/platform/invoice_reconciliation/comparison: the page's comparison of base64 CSVs (both sides, as compared). */
  comparison(owner: number, request: ReconciliationComparisonRequest): Promise<{ default: unknown; custom_config: unknown }>;
  /** Saves the owner's reconciliation config (checked against its JSON Schema, a 400 otherwise), as the page's config form does. */
  saveConfig(owner: number, config: Record<string, unknown>): Promise<void>;
}
export const InvoiceReconciliation = token<InvoiceReconciliationService>('InvoiceReconciliation');

/** The reconciliation page's request: the invoices CSV and, optionally, the purchase orders CSV, in base64. */
export interface ReconciliationComparisonRequest {
  combination_id: number;
  file1_name: string;
  file1_binary: string;
  file2_name?: string | null;
  file2_binary?: string | null;
}

/**
 * Financial statement analysis (plugins/financial-analysis): reads a CSV, XLSX or PDF statement
 * and reports on a focus area — the given one, else the owner's saved one, else the overall
 * position. A statement that cannot be read throws an error whose `statusCode` is 400.
 */
export interface FinancialAnalysisService {
  analyse(
    owner: number,
    file: { name: string; kind: 'csv' | 'xlsx' | 'pdf'; data: Uint8Array },
    focusArea?: string,
  ): Promise<{ focusArea: string; focusAreaSource: 'given' | 'saved config' | 'default'; report: Record<string, unknown> }>;
  /** the focus areas a caller may name */
  focusAreas: readonly string[];
  /**
   * POST /api/platform/financial_analysis/start_comparison: stores the statement and starts the
   * analyses (the default focus area's unless `default` is false, and the saved one's); the run's
   * id to follow with `complete`. No saved focus area is a 400.
   */
  startComparison(
    owner: number,
    request: { combination_id: number; file_name: string; file_binary: string; default?: boolean },
  ): Promise<{ jobId: { wf_id: string }; status: 'RUNNING'; message: string }>;
  /** POST /api/financial-analysis/complete/: the owner's run (RUNNING, COMPLETE with the reports, FAILED); anyone else's is a 404. */
  complete(owner: number, wfId: string): Promise<{ status: 'RUNNING' | 'COMPLETE' | 'FAILED'; report?: unknown; message?: string }>;
  /** Saves the owner's focus area (SELECTED_FOCUS_AREA, checked against the config's JSON Schema), as the page's config form does. */
  saveConfig(owner: number, config: Record<string, unknown>): Promise<void>;
}
export const FinancialAnalysis = token<FinancialAnalysisService>('FinancialAnalysis');
