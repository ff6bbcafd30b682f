/**
 * The server's public face: everything a server plugin may use. Plugins import from here (or
 * src/core), never from a deeper path of src/server (tests/unit/core/public-faces.test.ts).
 */
export { defineServerPlugin } from './plugin';
export * as T from './tokens';
export { provide, contribute, contributionKind, type ContributionKind } from '../core';
export { userOf } from './auth/guard';
export { Accounts, type AccountDirectory } from './auth';
export { HttpError, badRequest, forbidden, notFound } from './http/errors';
export { parseId } from './http/ids';
export type { Migration } from './db/migrate';
export type { Db } from './db/database';
export { intVar, type ServerConfig } from './config';
export type { JobQueue, JobRecord } from './queue/job-queue';
export { MAIL_JOB, type MailMessage } from './mail';
export { keyedRateLimit } from './http/rate-limits';
export { AI_PROVIDER, SOLUTIONS, connectors, trigger } from './catalogue/building-blocks';
export { CatalogueTriggers } from './catalogue/kinds';
export type { CatalogueContribution, RecipeTemplateSeed } from './catalogue/types';
export type { GeneratedText, TextGenerator, TextTask } from './ai/text-generation/text-generator';
export { WorkflowUploads, type FileKind, ALL_FILE_KINDS, type FileStore } from './files';
export { readWebsite, type PageContent } from './web-fetch/page-reader';
export { safeFetch, WebFetchError, IMAGE_TYPES } from './web-fetch/safe-fetch';
export { LexiconEmotionAnalyser, LlmEmotionAnalyser, type EmotionAnalyser } from './ai/emotion';
export { extractInvoice, extractInvoiceFromDocument, extractDocumentFields, xmlPdfFirstPage, eInvoiceText, ownPageIndex } from './ai/extraction';
export { readEInvoiceFile } from './ai/extraction/e-invoice-file';
export { type OcrEngine } from './ai/ocr';
export {
  decodeText,
  normaliseHeader,
  openCsv,
  readAmountCell,
  type CsvSource,
  type CsvHeader,
  type CsvTable,
  CsvFormatError,
  type OpenedCsv,
  parseAmount,
  readGridsBounded,
  type Grid,
  GridBudgetError,
  checkZipBudget,
  ZipBudgetError,
} from './tabular';
export { readConfigJson, configTableMigration, registerConfigRoutes, ConfigStore, base64BodyLimit, decodeBase64File } from './combination';
export { renderFirstPagePng, DocumentReadError, readPdfBounded } from './ai/pdf';
export {
  AutomationActions,
  AutomationTriggers,
  PermanentStepError,
  type ActionContext,
  type ActionDefinition,
  type FileRef,
  defineAction,
  defineTrigger,
  PushTriggers,
  type StepConnection,
  type StepContext,
  RecipeTargetStore,
  type RecipeTargetService,
  FinishedJobs,
  type FinishedJobFact,
  type FinishedJobService,
} from './automation';
export { WorkflowTimes } from './catalogue';
export {
  type EmotionAnalysisService,
  EmotionAnalysis,
  type StoredDocumentExtractor,
  type InvoiceFields,
  type DocumentFields,
  type InvoiceExtractionService,
  InvoiceExtraction,
  DocumentExtraction,
  type DocumentSearchService,
  DocumentSearch,
  type InvoiceReconciliationService,
  InvoiceReconciliation,
  type ReconciliationComparisonRequest,
  type FinancialAnalysisService,
  FinancialAnalysis,
} from './ai/services';
export { PageReadError, type ReadWebsiteResult } from './web-fetch/page-reader';
export { type SafeFetchOptions, type WebFetchErrorCode } from './web-fetch/safe-fetch';
export { EmptyTextError, TextTooLongError } from './ai/emotion';
export { downloadUrl } from './files/routes';
export { Connections, ConnectionService, NotConnectedError } from './connections';
export { Connectors, type ConnectorDefinition, type ConnectorSandbox, type OAuthConnectorSettings, type SandboxEndpoints } from './connections';
export { TriggerPolling, TriggerPoller } from './automation/polling';
export { type PolledEvent, type PolledTriggerDefinition } from './automation/polled-triggers';
export type { RecipeRow } from './automation/user-recipes';
export { SetupPreparations } from './automation/setup-preparations';
export {
  runExtractionJob,
  type ExtractionJobData,
  DOCUMENT_EXTRACTION_JOB,
  INVOICE_EXTRACTION_JOB,
  notSucceeded,
  ownedJob,
  viewOf,
  waitForJob,
  type JobView,
  documentOf,
  startExtraction,
  extractionAction,
  storedDocumentExtractor,
  INVOICE_KINDS,
} from './ai/extraction/jobs';
