import { defineServerPlugin } from '../plugin';
import * as T from '../tokens';
import { registerFileRoutes } from './routes';
import { uploadKindsByWorkflow, WorkflowUploads } from './workflow-uploads';

/**
 * Uploads for the workflow pages (`/api/platform/uploadworkflowfile`, checked by content against
 * the kinds the workflow's plugin declares as a WorkflowUploads contribution, MAX_UPLOAD_MB) and the signed, short-lived download links they return. Publishes
 * 'file/stored' so plugins (document search, extraction) can react to a user's new file.
 */
export const filesModule = defineServerPlugin({
  id: 'files',
  declares: [WorkflowUploads],
  needs: { files: T.FileStore, config: T.ServerConfig, events: T.EventBus, tokens: T.TokenService, db: T.Db, contributions: T.Contributions },
  routes(app, deps) {
    registerFileRoutes(app, { ...deps, uploadKinds: uploadKindsByWorkflow(deps.contributions.all(WorkflowUploads)) });
  },
});
