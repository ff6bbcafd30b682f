/** The file store: uploads checked by content, stored per owner, downloaded through signed links. */
export * from './errors';
export * from './file-kinds';
export * from './file-store';
export { DiskFileStore } from './disk-file-store';
export { ContentProbe, DEFAULT_MAX_IMAGE_PIXELS, detectKind, E_INVOICE_ROOTS, looksDelimited, magicOf, xmlRootName, zipEntryNames } from './content-probe';
export { sanitiseFileName } from './sanitise-name';
export * from './signed-link';
export { runBounded, stopIdleWorkers, ParseBudgetError, DEFAULT_WORKER_BUDGET, type WorkerBudget, type WorkerFailure } from './bounded-worker';
export { WorkflowUploads, uploadKindsByWorkflow, type WorkflowUpload } from './workflow-uploads';
