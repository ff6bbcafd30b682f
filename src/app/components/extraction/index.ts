/**
 * The extraction pages' shared pieces (document fields, 10006, and invoices, 10004): the upload
 * form with its file checks, the file transfers (a token, so tests replace them), a job's
 * progress, the label wording and a cancellable wait. Exported through src/app's public face.
 */
export { DocumentUploadForm, NO_FILE_MESSAGE, type UploadState } from './DocumentUploadForm';
export { ExtractionFiles, NETWORK_MESSAGE, browserCountry, browserExtractionFiles, useExtractionFiles, type UploadedFile } from './extraction-files';
export {
  checkDocumentFile,
  DOCUMENT_ACCEPT,
  EMPTY_FILE_MESSAGE,
  INVOICE_ACCEPT,
  INVOICE_WRONG_TYPE_MESSAGE,
  MAX_DOCUMENT_BYTES,
  TOO_LARGE_MESSAGE,
  WRONG_TYPE_MESSAGE,
} from './file-checks';
export { JobProgress } from './JobProgress';
export { PagesRead, pagesReadText } from './PagesRead';
export { humaniseLabel } from './labels';
export { wait } from './wait';
