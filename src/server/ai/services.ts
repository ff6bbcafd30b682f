import { token } from '../../core/di';
import type { EmotionAnalyser } from './emotion';
import type { extractDocumentFields, extractInvoice } from './extraction';

/**
 * The AI features as services, each provided by its plugin under one of these tokens, so the
 * engine's steps, the plugin's own routes and other callers (the public API, MCP tools) use the
 * same instance: `needs: { search: DocumentSearch }`. A token is only bound while its plugin is
 * installed; ask for it only when you depend on that plugin.
 */

/** Sentence-by-sentence emotion labels of a text (plugins/emotion-analysis). */
export const EmotionAnalysis = token<EmotionAnalyser>('EmotionAnalysis');

/** What reading one stored document gave: the extractor's result, or why it could not be read. */
export type DocumentReadOutcome<R> = { ok: true; name: string; pages: number; result: R } | { ok: false; message: string };

/** Reads an owner's stored document (PDF text layer, OCR for scans and images) and extracts from it. */
export interface StoredDocumentExtractor<R> {
  extract(
    owner: number,
    file: { bucket: string; key: string },
    opts?: { progress?: (pct: number) => void; jobId?: string; attempt?: number },
  ): Promise<DocumentReadOutcome<R>>;
}

export type InvoiceFields = ReturnType<typeof extractInvoice>;
export type DocumentFields = ReturnType<typeof extractDocumentFields>;

/** Invoice fields, line items and warnings of a stored invoice (plugins/invoice-extraction). */
export const InvoiceExtraction = token<StoredDocumentExtractor<InvoiceFields>>('InvoiceExtraction');
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

/** Natural-language search over an owner's documents, and adding one to the index (plugins/document-search). */
export interface DocumentSearchService {
  search(owner: number, query: string, limit?: number): Promise<DocumentSearchHit[]>;
  index(doc: { owner: number; bucket: string; key: string; name: string; text: string }): Promise<{ words: number }>;
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
}
export const InvoiceReconciliation = token<InvoiceReconciliationService>('InvoiceReconciliation');

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
}
export const FinancialAnalysis = token<FinancialAnalysisService>('FinancialAnalysis');
