import { defineServerPlugin } from '../plugin';
import * as T from '../tokens';
import { registerFileRoutes } from './routes';

/**
 * Uploads for the workflow pages (`/api/platform/uploadworkflowfile`, checked by content per
 * workflow, MAX_UPLOAD_MB) and the signed, short-lived download links they return. Publishes
 * 'file/stored' so plugins (document search, extraction) can react to a user's new file.
 */
export const filesModule = defineServerPlugin({
  id: 'files',
  needs: { files: T.FileStore, config: T.ServerConfig, events: T.EventBus, tokens: T.TokenService, db: T.Db },
  routes(app, deps) {
    registerFileRoutes(app, deps);
  },
});
