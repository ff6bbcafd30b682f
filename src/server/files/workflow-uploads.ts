import { contributionKind } from '../../core/contributions';
import type { FileKind } from './file-kinds';

/**
 * A workflow page that takes uploads at POST /api/platform/uploadworkflowfile, and the kinds it
 * accepts (decided by content). The plugin that owns the workflow declares it:
 *   contribute(WorkflowUploads, { workflow: 10006, kinds: ['pdf', 'png', 'jpeg'] })
 * The upload route names no workflow itself; a workflow no plugin declares takes no uploads.
 */
export interface WorkflowUpload {
  workflow: number;
  kinds: readonly FileKind[];
}

export const WorkflowUploads = contributionKind<WorkflowUpload>('files.workflow-upload', 'Workflow upload', (u) => String(u.workflow));

/** The accepted kinds by workflow id ('10006' → ['pdf', 'png', 'jpeg']), from the contributions. */
export function uploadKindsByWorkflow(uploads: readonly WorkflowUpload[]): ReadonlyMap<string, readonly FileKind[]> {
  return new Map(uploads.map((u) => [String(u.workflow), u.kinds]));
}
