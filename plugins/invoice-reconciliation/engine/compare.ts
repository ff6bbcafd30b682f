/**
 * The `comparison` operation in the spec's shape: `{ default, custom_config }`, each with
 * emails, metadata, discrepencies (spelt so) and unmatched_records. "default" uses the keys and
 * columns detected from the headers and the default e-mail settings; "custom_config" uses the
 * saved config (the Python-style config_json string, read with a real parser). With only the
 * invoice file, both sides run the invoice-only check.
 */
import { parsePythonLiteral } from '../../../src/core';
import type { TextGenerator } from '../../../src/server';
import { decodeText, openCsv, type CsvSource } from '../../../src/server';
import { draftEmails, isTone, TONES, type EmailDraft, type EmailSettings, type Tone } from './emails';
import { checkInvoices } from './invoice-check';
import { DEFAULT_TOLERANCE, reconcile, type Discrepancy, type ReconcileMetadata, type UnmatchedRecord } from './matcher';

/** A saved config that cannot be used: the message names the field and what is wrong. */
export class ReconciliationConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReconciliationConfigError';
  }
}

/** The reconciliation config variables (spec names), all optional. */
export interface ReconciliationConfig {
  INVOICE_PRIMARY_KEY?: string;
  PURCHASE_ORDER_PRIMARY_KEY?: string;
  EMAIL_TONE_OF_VOICE_MATCHED?: Tone;
  EMAIL_TONE_OF_VOICE_NOT_MATCHED?: Tone;
  GENERATE_EMAIL_FOR_NOT_MATCHED?: boolean;
  GENERATE_EMAIL_FOR_MATCHED?: boolean;
  GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED?: boolean;
  /** Optional override of the comparison tolerance. */
  TOLERANCE?: number;
}

/** One side of the comparison reply. */
export interface ComparisonSide {
  emails: EmailDraft[];
  metadata: ReconcileMetadata & { config_source: 'detected' | 'saved config' };
  discrepencies: Discrepancy[];
  unmatched_records: UnmatchedRecord[];
}

export interface ComparisonResult {
  default: ComparisonSide;
  custom_config: ComparisonSide;
}

/** E-mail settings of the default side. */
export const DEFAULT_EMAIL_SETTINGS: EmailSettings = {
  generateForNotMatched: true,
  generateForMatched: false,
  generateInternalMemo: true,
  toneNotMatched: 'formal',
  toneMatched: 'friendly',
};

function readBoolean(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw new ReconciliationConfigError(`${name} must be True or False, not ${JSON.stringify(value)}.`);
}

/**
 * Reads and checks a reconciliation config: the config_json string (Python literal, e.g.
 * "{'INVOICE_PRIMARY_KEY': 'PO Number', 'GENERATE_EMAIL_FOR_MATCHED': False}") or an object.
 * Unknown keys (combination_id...) are ignored; wrong types and unknown tones are errors.
 */
export function parseReconciliationConfig(input: string | Record<string, unknown>): ReconciliationConfig {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = parsePythonLiteral(input);
    } catch (error) {
      throw new ReconciliationConfigError(`The saved config could not be read. ${(error as Error).message}`);
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ReconciliationConfigError('The saved config must be a dict of settings.');
  const o = raw as Record<string, unknown>;
  const config: ReconciliationConfig = {};
  for (const name of ['INVOICE_PRIMARY_KEY', 'PURCHASE_ORDER_PRIMARY_KEY'] as const) {
    const v = o[name];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v !== 'string') throw new ReconciliationConfigError(`${name} must be a column name, not ${JSON.stringify(v)}.`);
    config[name] = v;
  }
  for (const name of ['EMAIL_TONE_OF_VOICE_MATCHED', 'EMAIL_TONE_OF_VOICE_NOT_MATCHED'] as const) {
    const v = o[name];
    if (v === undefined || v === null || v === '') continue;
    const tone = typeof v === 'string' ? v.trim().toLowerCase() : v;
    if (!isTone(tone)) throw new ReconciliationConfigError(`${name} must be one of ${TONES.join(', ')}, not ${JSON.stringify(v)}.`);
    config[name] = tone;
  }
  for (const name of ['GENERATE_EMAIL_FOR_NOT_MATCHED', 'GENERATE_EMAIL_FOR_MATCHED', 'GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED'] as const) {
    const v = readBoolean(o[name], name);
    if (v !== undefined) config[name] = v;
  }
  if (o.TOLERANCE !== undefined && o.TOLERANCE !== null) {
    if (typeof o.TOLERANCE !== 'number' || !Number.isFinite(o.TOLERANCE) || o.TOLERANCE < 0)
      throw new ReconciliationConfigError(`TOLERANCE must be a number of zero or more, not ${JSON.stringify(o.TOLERANCE)}.`);
    config.TOLERANCE = o.TOLERANCE;
  }
  return config;
}

/** The header cells of an uploaded CSV: the choices for INVOICE_PRIMARY_KEY / PURCHASE_ORDER_PRIMARY_KEY. */
export async function csvHeaders(source: CsvSource): Promise<string[]> {
  return (await openCsv(source)).header.headers;
}

/** Reads a stream or bytes once into text, so the file can be compared twice (default and custom). */
async function toText(source: CsvSource, maxRows: number): Promise<CsvSource> {
  if (typeof source.data === 'string') return { ...source, maxRows };
  if (source.data instanceof Uint8Array) return { name: source.name, data: decodeText(source.data), maxRows };
  const chunks: Buffer[] = [];
  for await (const chunk of source.data as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return { name: source.name, data: decodeText(Buffer.concat(chunks)), maxRows };
}

/** Rows one file of a comparison may have: a million-row pair blocked others for seconds and answered 175 MB. */
export const RECONCILE_MAX_ROWS = 50_000;

export interface CompareFilesInput {
  invoiceCsv: CsvSource;
  poCsv?: CsvSource;
  /** The saved config: config_json string or object. Absent → custom_config repeats the default. */
  config?: string | Record<string, unknown>;
  textGenerator: TextGenerator;
  /** Comparison tolerance (default 0.01); the config's TOLERANCE overrides it for the custom side. */
  tolerance?: number;
  /** Signature of the e-mails (default "Accounts Payable"). */
  sender?: string;
  /** Row budget per file (default RECONCILE_MAX_ROWS). */
  maxRows?: number;
}

/**
 * Runs the default and the custom reconciliation and drafts their e-mails. When the custom keys
 * and tolerance equal the detected ones, the match is computed once and only the e-mails differ.
 */
export async function compareFiles(input: CompareFilesInput): Promise<ComparisonResult> {
  const tolerance = input.tolerance ?? DEFAULT_TOLERANCE;
  const config = input.config === undefined ? undefined : parseReconciliationConfig(input.config);
  const maxRows = input.maxRows ?? RECONCILE_MAX_ROWS;
  const invoices = await toText(input.invoiceCsv, maxRows);
  const orders = input.poCsv ? await toText(input.poCsv, maxRows) : undefined;

  const run = (invoiceKey?: string, purchaseOrderKey?: string, tol = tolerance) =>
    orders ? reconcile(invoices, orders, { invoiceKey, purchaseOrderKey, tolerance: tol }) : checkInvoices(invoices, { invoiceKey, tolerance: tol });

  const defaultResult = await run();
  const customTolerance = config?.TOLERANCE ?? tolerance;
  const same = (a: string | undefined, b: string | null) => a === undefined || (b !== null && a.trim().toLowerCase() === b.trim().toLowerCase());
  const customResult =
    !config ||
    (same(config.INVOICE_PRIMARY_KEY, defaultResult.metadata.invoice_key) &&
      (!orders || same(config.PURCHASE_ORDER_PRIMARY_KEY, defaultResult.metadata.purchase_order_key)) &&
      customTolerance === tolerance)
      ? defaultResult
      : await run(config.INVOICE_PRIMARY_KEY, orders ? config.PURCHASE_ORDER_PRIMARY_KEY : undefined, customTolerance);

  const defaultSettings: EmailSettings = { ...DEFAULT_EMAIL_SETTINGS, sender: input.sender };
  const customSettings: EmailSettings = config
    ? {
        generateForNotMatched: config.GENERATE_EMAIL_FOR_NOT_MATCHED ?? DEFAULT_EMAIL_SETTINGS.generateForNotMatched,
        generateForMatched: config.GENERATE_EMAIL_FOR_MATCHED ?? DEFAULT_EMAIL_SETTINGS.generateForMatched,
        generateInternalMemo: config.GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED ?? DEFAULT_EMAIL_SETTINGS.generateInternalMemo,
        toneNotMatched: config.EMAIL_TONE_OF_VOICE_NOT_MATCHED ?? DEFAULT_EMAIL_SETTINGS.toneNotMatched,
        toneMatched: config.EMAIL_TONE_OF_VOICE_MATCHED ?? DEFAULT_EMAIL_SETTINGS.toneMatched,
        sender: input.sender,
      }
    : defaultSettings;

  const [defaultEmails, customEmails] = await Promise.all([
    draftEmails(defaultResult, defaultSettings, input.textGenerator),
    draftEmails(customResult, customSettings, input.textGenerator),
  ]);
  return {
    default: {
      emails: defaultEmails,
      metadata: { ...defaultResult.metadata, config_source: 'detected' },
      discrepencies: defaultResult.discrepencies,
      unmatched_records: defaultResult.unmatched_records,
    },
    custom_config: {
      emails: customEmails,
      metadata: { ...customResult.metadata, config_source: config ? 'saved config' : 'detected' },
      discrepencies: customResult.discrepencies,
      unmatched_records: customResult.unmatched_records,
    },
  };
}
