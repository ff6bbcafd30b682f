/**
 * The catalogue's shared vocabulary, defined once for both runtimes: solution ids and names, the
 * product's own AI provider, the engine's built-in triggers, and the shapes of a declared
 * connector and a declared trigger. Plugins file their workflows under these solutions.
 * Connectors and plugins' triggers are not listed here: a plugin declares each one
 * (`defineConnector`: its provider id, name and catalogue id; `defineCatalogueTrigger`: its id,
 * name, catalogue id and icon), and the catalogue gives a combination's connectors and triggers
 * the declared ids and names, so each keeps one id and one name wherever it appears.
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

/**
 * The product's own AI steps as a catalogue connector: the one connector the core knows, since
 * no plugin owns it (every AI plugin's combinations name it). Its icon is the connectors
 * plugin's; the catalogue knows its id and name with or without that plugin.
 */
export const AI_CONNECTOR = {
  id: AI_PROVIDER,
  name: 'Flowmatic AI',
  catalogueId: 6,
  auth: { kind: 'none' },
} as const satisfies Omit<ConnectorDeclaration, 'icon'>;

/**
 * A connector's provider id as combinations, engine steps and connections name it
 * (`google_drive`, `slack`): any declared connector's id, so a plain string.
 */
export type ConnectorKind = string;

/** A JSON Schema of an object: the form a user fills in to connect with an API key. */
export interface KeyFormSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  [keyword: string]: unknown;
}

/** How a user gives the product access to a connector's account. */
export type ConnectorAuth =
  /** a sign-in at the provider (OAuth 2 code flow with PKCE) asking for these scopes */
  | { kind: 'oauth2'; scopes: string[] }
  /** a form of keys (JSON Schema, rendered with rjsf in the widget); the first `required` field is the token steps receive */
  | { kind: 'api-key'; schema: KeyFormSchema; uiSchema?: Record<string, unknown> }
  /** nothing to connect (manual upload, e-mail, the AI steps) */
  | { kind: 'none' };

/**
 * A connector, declared once in a plugin's own file and imported by both its `index.ts` (the
 * browser: icon, name, whether it needs authorisation) and its `server.ts` (which adds the OAuth
 * endpoints, environment variables and sandbox, src/server `Connectors`).
 */
export interface ConnectorDeclaration {
  /** the provider id, in catalogue combinations, engine steps and connections (`slack`, `google_drive`) */
  id: string;
  name: string;
  /** an image address (a data: URI needs no asset pipeline) */
  icon: string;
  /** its numeric id in catalogue combinations' connector lists (unique across connectors) */
  catalogueId: number;
  auth: ConnectorAuth;
}

/** Provider ids: lower-case letters, digits and '_', starting with a letter. */
export const CONNECTOR_ID_PATTERN = /^[a-z][a-z0-9_]{1,39}$/;

/** Checks a declaration's shape (a mistake fails the plugin's import, naming the connector). */
export function defineConnector<D extends ConnectorDeclaration>(declaration: D): D {
  const d = declaration;
  const where = `Connector "${String(d?.id)}"`;
  if (typeof d?.id !== 'string' || !CONNECTOR_ID_PATTERN.test(d.id))
    throw new Error(`${where}: the id must be 2-40 lower-case letters, digits or "_", starting with a letter.`);
  if (typeof d.name !== 'string' || !d.name.trim()) throw new Error(`${where} has no name.`);
  if (typeof d.icon !== 'string' || !d.icon) throw new Error(`${where} has no icon.`);
  if (!Number.isInteger(d.catalogueId) || d.catalogueId < 1) throw new Error(`${where}: catalogueId must be a whole number from 1.`);
  const auth = d.auth as ConnectorAuth | undefined;
  if (auth?.kind === 'oauth2') {
    if (!Array.isArray(auth.scopes) || auth.scopes.some((x) => typeof x !== 'string')) throw new Error(`${where}: OAuth 2 scopes must be a list of strings.`);
  } else if (auth?.kind === 'api-key') {
    const schema = auth.schema as KeyFormSchema | undefined;
    if (schema?.type !== 'object' || typeof schema.properties !== 'object' || !schema.required?.length) {
      throw new Error(`${where}: the API-key form must be an object schema with properties and at least one required field.`);
    }
  } else if (auth?.kind !== 'none') {
    throw new Error(`${where}: auth.kind must be 'oauth2', 'api-key' or 'none'.`);
  }
  return d;
}

/** Whether a user must connect an account before the connector works. */
export function connectorNeedsAccount(d: Pick<ConnectorDeclaration, 'auth'>): boolean {
  return d.auth.kind !== 'none';
}

/**
 * A declaration as the browser's `Connectors` contribution (`connectors: [clientConnector(slack)]`
 * in a plugin manifest): the icon and name the catalogue and the setup screens show, and whether
 * the connector needs an account.
 */
export function clientConnector(d: ConnectorDeclaration): { provider: string; name: string; icon: string; needsAuthorisation: boolean } {
  return { provider: d.id, name: d.name, icon: d.icon, needsAuthorisation: connectorNeedsAccount(d) };
}

/**
 * A trigger as the catalogue lists it with a combination, declared once by the plugin (or the
 * core) whose engine provides it: its id, the string combinations name it by
 * (`trigger('google_drive_new_file')`), its name, its numeric id in the combinations' trigger
 * lists and its icon key (the connector it comes from). Contributed on the server as
 * `CatalogueTriggers`.
 */
export interface CatalogueTriggerDeclaration {
  /** the id combinations name it by (`file_uploaded`, `xero_new_bill`) */
  id: string;
  name: string;
  /** its numeric id in catalogue combinations' trigger lists (unique across triggers) */
  catalogueId: number;
  /** icon key: the connector it comes from */
  icon: string;
}

/** Checks a catalogue trigger's shape (a mistake fails the plugin's import, naming the trigger). */
export function defineCatalogueTrigger<D extends CatalogueTriggerDeclaration>(declaration: D): D {
  const d = declaration;
  const where = `Catalogue trigger "${String(d?.id)}"`;
  if (typeof d?.id !== 'string' || !CONNECTOR_ID_PATTERN.test(d.id))
    throw new Error(`${where}: the id must be 2-40 lower-case letters, digits or "_", starting with a letter.`);
  if (typeof d.name !== 'string' || !d.name.trim()) throw new Error(`${where} has no name.`);
  if (typeof d.icon !== 'string' || !d.icon) throw new Error(`${where} has no icon.`);
  if (!Number.isInteger(d.catalogueId) || d.catalogueId < 1) throw new Error(`${where}: catalogueId must be a whole number from 1.`);
  return d;
}

/**
 * The catalogue terms of the engine's built-in triggers (src/server/automation/builtins/triggers.ts:
 * an e-mail to the recipe's address, a file or text handed in): the only triggers the core knows,
 * since no plugin owns them. A plugin's trigger (Google Drive's new file, Xero's new bill) is
 * declared by that plugin.
 */
export const BUILTIN_TRIGGERS = [
  { id: 'email_received', name: 'New e-mail with attachments', catalogueId: 2, icon: 'manual_email' },
  { id: 'file_uploaded', name: 'File uploaded in Flowmatic', catalogueId: 3, icon: 'manual_upload' },
  { id: 'text_submitted', name: 'Text submitted in Flowmatic', catalogueId: 4, icon: 'text' },
] as const satisfies readonly CatalogueTriggerDeclaration[];

/**
 * A trigger's id as combinations name it (`file_uploaded`, `google_drive_new_file`): a built-in
 * one's or any declared trigger's, so a plain string.
 */
export type TriggerKind = string;
