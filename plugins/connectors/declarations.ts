import { CONNECTORS, defineConnector } from '../../src/core';
import { flowmaticAiIcon, googleDriveIcon, googleSheetsIcon, manualEmailIcon, manualUploadIcon, xeroIcon } from './icons';

/**
 * The connectors this plugin declares, shared by its browser half (index.ts: icons and names for
 * the catalogue and the setup screens) and its server half (providers.ts adds the OAuth
 * endpoints, environment variables and sandboxes). Their catalogue ids and names are the
 * catalogue's built-in terms (CONNECTORS), so the stored combinations keep theirs.
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

const term = (t: { id: number; name: string; provider: string }) => ({ id: t.provider, name: t.name, catalogueId: t.id });

export const googleDrive = defineConnector({ ...term(CONNECTORS.google_drive), icon: googleDriveIcon, auth: { kind: 'oauth2', scopes: GOOGLE_DRIVE_SCOPES } });
export const googleSheets = defineConnector({
  ...term(CONNECTORS.google_sheets),
  icon: googleSheetsIcon,
  auth: { kind: 'oauth2', scopes: GOOGLE_SHEETS_SCOPES },
});
export const xero = defineConnector({ ...term(CONNECTORS.xero), icon: xeroIcon, auth: { kind: 'oauth2', scopes: XERO_SCOPES } });
export const manualUpload = defineConnector({ ...term(CONNECTORS.manual_upload), icon: manualUploadIcon, auth: { kind: 'none' } });
export const manualEmail = defineConnector({ ...term(CONNECTORS.manual_email), icon: manualEmailIcon, auth: { kind: 'none' } });
export const flowmaticAi = defineConnector({ ...term(CONNECTORS.flowmatic_ai), icon: flowmaticAiIcon, auth: { kind: 'none' } });

/** Every connector of this plugin, in the order the catalogue lists them. */
export const DECLARED_CONNECTORS = [googleDrive, googleSheets, xero, manualUpload, manualEmail, flowmaticAi];
