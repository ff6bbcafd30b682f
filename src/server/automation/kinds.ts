import { contributionKind, type ContributionRegistry } from '../../core/contributions';
import type { FileStore } from '../files/file-store';
import type { TextGenerator } from '../ai/text-generation/text-generator';
import type { WebhookPayloadSchema } from './webhook-payload';

/** A file a trigger brought in, kept in the FileStore of the recipe's owner (never the bytes). */
export interface FileRef {
  bucket: string;
  key: string;
  name: string;
  kind: string;
  size: number;
}

/** Where a run came from. */
export type TriggerSource = 'webhook' | 'manual_upload' | 'manual_email' | 'setup' | 'rerun' | 'poll' | 'push';

/**
 * What a run starts from: the posted fields (or the e-mail's), and references to its files.
 * Stored with the job, so "run again" replays it.
 */
export interface TriggerPayload {
  source: TriggerSource;
  data: Record<string, unknown>;
  files: FileRef[];
}

/** An e-mail an action sends, with its Message-ID (derived from the step's idempotency key). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  messageId: string;
}

/** A step's context: who runs it, its services and its limits. */
export interface ActionContext {
  /** the recipe owner's user id (FileStore owner) */
  userId: number;
  /** the owner's managed-user (workato) id */
  managedUserId: number;
  /** the owner's e-mail address: the one address a mail-started run may send to besides the configured ones */
  ownerEmail?: string;
  /**
   * true when the run is started by e-mail: its recipe's trigger is the e-mail trigger (however
   * this run came in: real inbound mail, its webhook standing in for the mail, an upload, a run
   * again) or its payload came from inbound mail. Such a run writes e-mail only to the owner or
   * to an address the recipe names as it is.
   */
  mailStarted?: boolean;
  recipeId: number;
  combinationId: number;
  jobId: string;
  stepIndex: number;
  /** which try this is, 1 for the first */
  attempt: number;
  /** stable for one job and step across retries and restarts: give it to every side effect */
  idempotencyKey: string;
  /** the step's params from the recipe template */
  params: Record<string, unknown>;
  /** the payload the run started from */
  trigger: TriggerPayload;
  files: FileStore;
  text: TextGenerator;
  /** sends an e-mail now (the mail service); the message id makes a resend recognisable */
  mail: { send(message: OutgoingMail): Promise<void> };
  /** side effects already done, by key: check before, record after */
  ledger: { has(key: string): Promise<boolean>; record(key: string, kind: string): Promise<void> };
  /** the rows 'flowmatic:store_record' keeps for the recipe; one per key */
  records: { save(key: string, data: unknown): Promise<{ id: number; created: boolean }> };
  log: { info(msg: string): void; warn(msg: string): void };
  /** aborted when the step's time-out passes: stop work and return */
  signal: AbortSignal;
  /** reports progress 0..100 of this step */
  progress(pct: number): void;
  /** the contributions (for steps that run contributed hooks, e.g. the starter's SetupPreparations) */
  contributions?: ContributionRegistry;
}

/**
 * One step kind of a recipe. New steps are made with `defineAction` (steps.ts) and returned from a
 * plugin's `steps: (deps) => [...]`; the older form, still accepted, is
 * `contribute(AutomationActions, { provider, action, name, run })`. `run` receives the
 * previous step's output (the trigger payload for the first action) and returns this step's
 * output, which is checkpointed and fed to the next step.
 */
export interface ActionDefinition<I = any, O = unknown> {
  provider: string;
  action: string;
  /** shown in the job's step list */
  name: string;
  /** overrides ENGINE_STEP_TIMEOUT_MS (or ENGINE_AI_STEP_TIMEOUT_MS for the AI provider) */
  timeoutMs?: number;
  /** total tries of the step, default 3 */
  retries?: number;
  run(input: I, ctx: ActionContext): Promise<O>;
  /** what a step made with defineAction declares (settings, auth, schemas); absent for the older form */
  step?: StepDeclaration;
}

/** A JSON Schema (draft 2020-12 keywords that Ajv 8 knows; `format`s from ajv-formats). */
export type JsonSchema = Record<string, unknown>;

/** The declared parts of a step made with defineAction / defineTrigger, for the engine and the setup screen. */
export interface StepDeclaration {
  /** shown in the job's step list and on the setup screen */
  title: string;
  description?: string;
  /** the connection the step uses ('google_sheets'), resolved before it runs */
  auth?: string;
  /** the step's settings (a recipe step's params) */
  settings?: JsonSchema;
  /** what the step reads from the previous step's output */
  input?: JsonSchema;
  /** what it returns */
  output?: JsonSchema;
}

/**
 * How a recipe can start: `provider:action` as named by a catalogue recipe's trigger step.
 * `describe` turns a payload into the short line shown as the job's trigger summary.
 */
export interface TriggerDefinition {
  provider: string;
  action: string;
  name: string;
  describe?(payload: TriggerPayload): string;
  /**
   * What a call to the recipe's webhook carries, as a JSON Schema (schemas/automation/
   * webhook-payloads): the setup screen shows it with a curl example, and a call that does not
   * fit it is refused with a 400 naming the field. None: any JSON fields.
   */
  payload?: WebhookPayloadSchema;
  /** what a trigger made with defineTrigger declares */
  step?: StepDeclaration;
}

/** The engine's contribution points: plugins add actions and triggers with no engine edit. */
export const AutomationTriggers = contributionKind<TriggerDefinition>('automation.trigger', 'Automation trigger', (t) => `${t.provider}:${t.action}`);
export const AutomationActions = contributionKind<ActionDefinition>('automation.action', 'Automation action', (a) => `${a.provider}:${a.action}`);

/** The key of a step kind, as the kinds use it ('flowmatic_ai:extract_invoice_fields'). */
export function stepKey(step: { provider: string; action: string }): string {
  return `${step.provider}:${step.action}`;
}
