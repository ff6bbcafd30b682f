import type { ConnectorSeed, TriggerSeed } from './types';

/**
 * The connectors and triggers every catalogue plugin shares. A connector keeps one id whatever
 * combination it appears in (a workflow lists the union of its combinations' connectors), so
 * plugins build theirs from here instead of inventing ids. Part of the server's public surface.
 */
export const AI_PROVIDER = 'flowmatic_ai';
export const AI_PROVIDER_NAME = 'Flowmatic AI';

export type ConnectorKind = 'google_drive' | 'google_sheets' | 'xero' | 'manual_upload' | 'manual_email' | typeof AI_PROVIDER;

const CONNECTORS: Record<ConnectorKind, Omit<ConnectorSeed, 'order'>> = {
  google_drive: { id: 1, name: 'Google Drive', icon: 'google_drive', provider: 'google_drive' },
  google_sheets: { id: 2, name: 'Google Sheets', icon: 'google_sheets', provider: 'google_sheets' },
  xero: { id: 3, name: 'Xero', icon: 'xero', provider: 'xero' },
  manual_upload: { id: 4, name: 'File Upload', icon: 'manual_upload', provider: 'manual_upload' },
  manual_email: { id: 5, name: 'E-mail', icon: 'manual_email', provider: 'manual_email' },
  [AI_PROVIDER]: { id: 6, name: AI_PROVIDER_NAME, icon: AI_PROVIDER, provider: AI_PROVIDER },
};

/** The connectors of a combination, in the order given (order 1, 2, 3...). */
export function connectors(...kinds: ConnectorKind[]): ConnectorSeed[] {
  return kinds.map((k, i) => ({ ...CONNECTORS[k], order: i + 1 }));
}

export type TriggerKind = 'google_drive_new_file' | 'email_received' | 'file_uploaded' | 'text_submitted' | 'xero_new_bill';

const TRIGGERS: Record<TriggerKind, TriggerSeed> = {
  google_drive_new_file: { id: 1, name: 'New file in a Google Drive folder', icon: 'google_drive' },
  email_received: { id: 2, name: 'New e-mail with attachments', icon: 'manual_email' },
  file_uploaded: { id: 3, name: 'File uploaded in Flowmatic', icon: 'manual_upload' },
  text_submitted: { id: 4, name: 'Text submitted in Flowmatic', icon: 'text' },
  xero_new_bill: { id: 5, name: 'New bill in Xero', icon: 'xero' },
};

export function trigger(kind: TriggerKind): TriggerSeed {
  return { ...TRIGGERS[kind] };
}
