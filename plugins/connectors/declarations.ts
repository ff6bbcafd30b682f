import { AI_CONNECTOR, defineCatalogueTrigger, defineConnector } from '../../src/core';
import { flowmaticAiIcon, googleDriveIcon, googleSheetsIcon, manualEmailIcon, manualUploadIcon, xeroIcon } from './icons';

/**
 * The connectors this plugin declares, shared by its browser half (index.ts: icons and names for
 * the catalogue and the setup screens) and its server half (providers.ts adds the OAuth
 * endpoints, environment variables and sandboxes). This plugin owns their provider ids, names
 * and catalogue ids (1-5): the catalogue gives every combination naming one of them this id and
 * name. The AI steps' connector (6) is the core's (AI_CONNECTOR); this plugin gives it its icon.
 * Likewise this plugin owns the catalogue terms of its triggers (Google Drive's new file, 1;
 * Xero's new bill, 5); the engine's built-in triggers (e-mail, upload, text: 2-4) are the core's
 * (BUILTIN_TRIGGERS).
 */
export const GOOGLE_DRIVE_SCOPES = [
  'https://www.googleapis.com/auth/drive.readonly',
  'https://www.googleapis.com/auth/drive.file',
  'https://www.googleapis.com/auth/userinfo.email',
];
export const GOOGLE_SHEETS_SCOPES = [
  'https://www.googleapis.com/auth/spreadsheets',
  'https://www.googleapis.com/auth/drive.file',
  'https://www.googleapis.com/auth/userinfo.email',
];
export const XERO_SCOPES = ['offline_access', 'accounting.transactions', 'accounting.contacts', 'accounting.settings.read'];

export const googleDrive = defineConnector({
  id: 'google_drive',
  name: 'Google Drive',
  catalogueId: 1,
  icon: googleDriveIcon,
  auth: { kind: 'oauth2', scopes: GOOGLE_DRIVE_SCOPES },
});
export const googleSheets = defineConnector({
  id: 'google_sheets',
  name: 'Google Sheets',
  catalogueId: 2,
  icon: googleSheetsIcon,
  auth: { kind: 'oauth2', scopes: GOOGLE_SHEETS_SCOPES },
});
export const xero = defineConnector({ id: 'xero', name: 'Xero', catalogueId: 3, icon: xeroIcon, auth: { kind: 'oauth2', scopes: XERO_SCOPES } });
export const manualUpload = defineConnector({ id: 'manual_upload', name: 'Manual upload', catalogueId: 4, icon: manualUploadIcon, auth: { kind: 'none' } });
export const manualEmail = defineConnector({ id: 'manual_email', name: 'Email', catalogueId: 5, icon: manualEmailIcon, auth: { kind: 'none' } });
export const flowmaticAi = defineConnector({ ...AI_CONNECTOR, icon: flowmaticAiIcon });

/** Every connector of this plugin, in the order the catalogue lists them. */
export const DECLARED_CONNECTORS = [googleDrive, googleSheets, xero, manualUpload, manualEmail, flowmaticAi];

export const googleDriveNewFile = defineCatalogueTrigger({
  id: 'google_drive_new_file',
  name: 'New file in a Google Drive folder',
  catalogueId: 1,
  icon: 'google_drive',
});
export const xeroNewBill = defineCatalogueTrigger({ id: 'xero_new_bill', name: 'New bill in Xero', catalogueId: 5, icon: 'xero' });

/** Every catalogue trigger of this plugin (contributed on the server as `CatalogueTriggers`). */
export const DECLARED_TRIGGERS = [googleDriveNewFile, xeroNewBill];
