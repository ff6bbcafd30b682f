/**
 * The catalogue's shared vocabulary, defined once for both runtimes: solution ids, connector
 * and trigger ids and names. Plugins file their workflows under these solutions and build their
 * combinations' connectors and triggers from these entries, so a connector keeps one id and one
 * name wherever it appears.
 */
export const SOLUTIONS = {
  finance: { id: 1, name: 'Finance' },
  operations: { id: 2, name: 'Operations' },
  customerExperience: { id: 3, name: 'Customer Experience' },
  humanResources: { id: 4, name: 'Human Resources' },
  salesAndMarketing: { id: 5, name: 'Sales and Marketing' },
} as const;

/** The provider id of the product's own AI steps ({product}_ai in the spec). */
export const AI_PROVIDER = 'flowmatic_ai';

export interface ConnectorTerm {
  id: number;
  name: string;
  provider: string;
  /** true when the user must authorise an account (OAuth) before it works */
  needsAuthorisation: boolean;
}

export const CONNECTORS = {
  google_drive: { id: 1, name: 'Google Drive', provider: 'google_drive', needsAuthorisation: true },
  google_sheets: { id: 2, name: 'Google Sheets', provider: 'google_sheets', needsAuthorisation: true },
  xero: { id: 3, name: 'Xero', provider: 'xero', needsAuthorisation: true },
  manual_upload: { id: 4, name: 'Manual upload', provider: 'manual_upload', needsAuthorisation: false },
  manual_email: { id: 5, name: 'Email', provider: 'manual_email', needsAuthorisation: false },
  [AI_PROVIDER]: { id: 6, name: 'Flowmatic AI', provider: AI_PROVIDER, needsAuthorisation: false },
} as const satisfies Record<string, ConnectorTerm>;

export type ConnectorKind = keyof typeof CONNECTORS;

export interface TriggerTerm {
  id: number;
  name: string;
  /** icon key: the connector it comes from */
  icon: string;
}

export const TRIGGERS = {
  google_drive_new_file: { id: 1, name: 'New file in a Google Drive folder', icon: 'google_drive' },
  email_received: { id: 2, name: 'New e-mail with attachments', icon: 'manual_email' },
  file_uploaded: { id: 3, name: 'File uploaded in Flowmatic', icon: 'manual_upload' },
  text_submitted: { id: 4, name: 'Text submitted in Flowmatic', icon: 'text' },
  xero_new_bill: { id: 5, name: 'New bill in Xero', icon: 'xero' },
} as const satisfies Record<string, TriggerTerm>;

export type TriggerKind = keyof typeof TRIGGERS;
