/**
 * What combination views share (the finance views first): the saved config (useSavedConfig) and
 * its "Config" card, Run Workflow through the recipe's webhook, base64 uploads and downloads,
 * and sortable result tables.
 */
export { ConfigCard, type ConfigAction, type ConfigCardProps } from './ConfigCard';
export { useSavedConfig, type SavedConfig } from './use-saved-config';
export { runWorkflow, outcomeOfReply, NOT_SET_UP, RUN_STARTED, STOPPED, type RunOutcome } from './run-workflow';
export { RunWorkflowResult } from './RunWorkflowResult';
export { StepFiles, stepFiles, jobFileLink, type StepFileRef } from './StepFiles';
export { fileToBase64, saveBase64 } from './files';
export { ColumnTable, SortableTable, type Column } from './SortableTable';
