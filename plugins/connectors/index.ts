import { definePlugin } from '../../src/app/plugin';
import {
  flowmaticAiIcon,
  googleDriveIcon,
  googleSheetsIcon,
  manualEmailIcon,
  manualUploadIcon,
  xeroIcon,
} from './icons';

/**
 * The connectors a combination can use (spec section 3, Connector.provider). The three OAuth
 * providers need authorisation; manual upload, e-mail and the AI step do not.
 * Connection widgets arrive with the connections issue.
 */
export default definePlugin({
  id: 'connectors',
  connectors: [
    { provider: 'google_drive', name: 'Google Drive', icon: googleDriveIcon, needsAuthorisation: true },
    { provider: 'google_sheets', name: 'Google Sheets', icon: googleSheetsIcon, needsAuthorisation: true },
    { provider: 'xero', name: 'Xero', icon: xeroIcon, needsAuthorisation: true },
    { provider: 'manual_upload', name: 'Manual upload', icon: manualUploadIcon, needsAuthorisation: false },
    { provider: 'manual_email', name: 'Email', icon: manualEmailIcon, needsAuthorisation: false },
    { provider: 'flowmatic_ai', name: 'Flowmatic AI', icon: flowmaticAiIcon, needsAuthorisation: false },
  ],
});
