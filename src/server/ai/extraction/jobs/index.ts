/**
 * The extraction workflows' shared job kit (document fields, 10006, and invoices, 10004): a job
 * reads an owner's stored document (PDF text layer, OCR for scans) and applies an extractor;
 * the routes queue it, follow it and answer from it; the engine step reads with the same code.
 * Exported through src/server's public face, so each plugin uses it without importing another.
 */
export { runExtractionJob, stageOf, type ExtractionJobData, type ExtractionJobDeps, type ExtractionOutcome } from './extraction-job';
export { DOCUMENT_EXTRACTION_JOB, INVOICE_EXTRACTION_JOB } from './job-names';
export { JOB_FAILED_MESSAGE, JOB_NOT_FOUND_MESSAGE, notSucceeded, ownedJob, viewOf, waitForJob, type ExtractionStatus, type JobView } from './job-status';
export { documentOf, startExtraction } from './start-job';
export {
  INVOICE_KINDS,
  isReadableKind,
  NOT_A_DOCUMENT_MESSAGE,
  NotADocumentError,
  notADocumentMessage,
  READABLE_KINDS,
  readStoredDocument,
  type ReadableKind,
  type ReadResult,
  type StoredDocument,
} from './read-stored-document';
export { extractionAction, storedDocumentExtractor, stepFiles, type ExtractedDocument, type ExtractionServices } from './extraction-action';
