import {
  AI_PROVIDER,
  badRequest,
  CsvFormatError,
  defineAction,
  HttpError,
  PermanentStepError,
  decodeBase64File,
  readConfigJson,
  type ActionContext,
  type ConfigStore,
  type FileRef,
  type InvoiceReconciliationService,
  type TextGenerator,
} from '../../src/server';
import { compareFiles, ReconciliationConfigError, type ComparisonSide } from './engine/compare';
import { exportSide } from './export-side';

/** What the reconciliation service compares with: the saved configs and the text generator. */
export interface ReconciliationServiceDeps {
  store: Pick<ConfigStore, 'forCombination' | 'save'>;
  text: TextGenerator;
  combinationId: number;
  /** the config's JSON Schema (the page form's) */
  configSchema: object;
  /** the largest file a page call may give */
  maxUploadBytes: number;
}

/** Only .csv uploads are compared (spec section 5). */
function requireCsvName(name: string, role: string): void {
  if (!/\.csv$/i.test(name.trim())) throw badRequest(`The ${role} file must be a .csv file; "${name}" is not.`);
}

/**
 * The comparison as a service (provided as InvoiceReconciliation): the default and the custom
 * side, the custom one with the owner's saved config for the combination, as the page compares;
 * the page's comparison call (base64 CSVs) and its config saving. A bad CSV or config is a 400.
 */
export function reconciliationService(deps: ReconciliationServiceDeps): InvoiceReconciliationService {
  return {
    async comparison(owner, body) {
      if (body.combination_id !== deps.combinationId)
        throw badRequest(`The comparison belongs to combination ${deps.combinationId}, not ${body.combination_id}.`);
      requireCsvName(body.file1_name, 'invoice');
      const invoiceBytes = decodeBase64File(body.file1_name, body.file1_binary, deps.maxUploadBytes);
      let poCsv: { name: string; data: Uint8Array } | undefined;
      if (body.file2_binary) {
        const name = body.file2_name?.trim() || 'purchase-orders.csv';
        requireCsvName(name, 'purchase-order');
        poCsv = { name, data: decodeBase64File(name, body.file2_binary, deps.maxUploadBytes) };
      }
      const saved = await deps.store.forCombination(owner, deps.combinationId);
      try {
        return await compareFiles({ invoiceCsv: { name: body.file1_name, data: invoiceBytes }, poCsv, config: saved?.config, textGenerator: deps.text });
      } catch (error) {
        if (error instanceof CsvFormatError || error instanceof ReconciliationConfigError) throw badRequest(error.message);
        throw error;
      }
    },
    async saveConfig(owner, config) {
      await deps.store.save(owner, deps.combinationId, readConfigJson(JSON.stringify(config), deps.configSchema));
    },
    async compare(owner, { invoices, orders }) {
      const saved = await deps.store.forCombination(owner, deps.combinationId);
      try {
        const result = await compareFiles({ invoiceCsv: invoices, poCsv: orders, config: saved?.config, textGenerator: deps.text });
        return {
          default: result.default as unknown as Record<string, unknown>,
          custom_config: result.custom_config as unknown as Record<string, unknown>,
          config: saved ? 'saved config' : 'detected',
        };
      } catch (error) {
        if (error instanceof CsvFormatError || error instanceof ReconciliationConfigError) throw badRequest(error.message);
        throw error;
      }
    },
  };
}

/** The most discrepancies and unmatched rows a step passes on (the job keeps a step's output small). */
export const MAX_LISTED = 100;

const PO_NAME = /purchase|\bpos?\b|(?:^|[^a-z])po[-_ .]|orders?/i;

/**
 * Which posted CSV is the invoices and which the purchase orders: a name that says "purchase
 * order" / "PO" / "orders" is the purchase orders, otherwise the first file is the invoices and
 * the second the purchase orders. One file alone is checked on its own (invoice-only mode).
 */
export function pickFiles(files: FileRef[]): { invoices: FileRef; orders?: FileRef } {
  const csv = files.filter((f) => f.kind === 'csv' || /\.csv$/i.test(f.name));
  if (!csv.length)
    throw new PermanentStepError(
      `This step compares CSV files, but the run brought ${files.length ? `only ${files.map((f) => `"${f.name}"`).join(', ')}` : 'no file'}: upload the invoices CSV (and the purchase orders CSV).`,
    );
  if (csv.length > 2) throw new PermanentStepError(`Upload at most two CSV files (the invoices and the purchase orders), not ${csv.length}.`);
  if (csv.length === 1) return { invoices: csv[0] };
  const [a, b] = csv;
  if (PO_NAME.test(a.name) && !PO_NAME.test(b.name)) return { invoices: b, orders: a };
  return { invoices: a, orders: b };
}

function stringField(data: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const n of names) if (typeof data[n] === 'string' && (data[n] as string).trim()) return (data[n] as string).trim();
  return undefined;
}

/** The report the e-mail step sends: the internal memo when one was written, else a summary. */
function report(side: ComparisonSide): { subject: string; text: string } {
  const m = side.metadata;
  const subject = `Reconciliation of ${m.invoice_file}: ${side.discrepencies.length} discrepanc${side.discrepencies.length === 1 ? 'y' : 'ies'}, ${side.unmatched_records.length} unmatched`;
  const memo = side.emails.find((e) => e.type === 'internal_memo');
  const lines = [
    `Invoices: ${m.invoice_file} (${m.invoice_rows} rows)`,
    m.purchase_order_file
      ? `Purchase orders: ${m.purchase_order_file} (${m.purchase_order_rows} rows)`
      : 'No purchase-order file: the invoices were checked on their own.',
    `Matched: ${m.matched_rows} (${m.clean_matched_rows} clean), with discrepancies: ${m.lines_with_discrepancies}, unmatched: ${side.unmatched_records.length}.`,
  ];
  return { subject, text: memo ? `${memo.body}\n\n${lines.join('\n')}` : lines.join('\n') };
}

/** The bucket of the files engine steps make for their owner. */
const RESULT_BUCKET = 'automation';
/** A step keeps at most this much (the engine's limit is 256 KB): the lists shrink until the output fits. */
export const OUTPUT_BUDGET_BYTES = 200 * 1024;
/** The report's text is cut here; the workbook has everything. */
const MAX_TEXT = 20_000;
/** Vendors named in the kept metadata (each without its sample lines). */
const MAX_VENDORS = 20;

/**
 * The whole comparison (metadata, every discrepancy, every unmatched row, every e-mail) as an
 * XLSX workbook in the owner's file store: a step's output keeps a summary, never 100,000 rows.
 */
async function keepResult(ctx: Pick<ActionContext, 'userId' | 'files'>, side: ComparisonSide, saved: boolean): Promise<FileRef> {
  const book = await exportSide(side, saved ? 'custom_config' : 'default', 'xlsx');
  const base =
    side.metadata.invoice_file
      .replace(/\.[^.]*$/, '')
      .replace(/[^\w.-]+/g, '-')
      .slice(0, 60) || 'invoices';
  const stored = await ctx.files.put(ctx.userId, book.body, {
    originalName: `reconciliation-${base}.xlsx`,
    allowed: ['xlsx'],
    maxBytes: 256 * 1024 * 1024,
    bucket: RESULT_BUCKET,
  });
  return { bucket: stored.bucket, key: stored.key, name: stored.originalName, kind: stored.kind, size: stored.size };
}

/**
 * The step's output within OUTPUT_BUDGET_BYTES: the counts and totals as they are, the vendors
 * without their sample lines (the first 20), the report's text cut at 20,000 characters, and as
 * many of the first discrepancies, unmatched rows and e-mails as fit (at most 100 each; `listed`
 * says how many). The full result is the workbook in `result_file`.
 */
function boundedOutput(side: ComparisonSide, head: Record<string, unknown>): Record<string, unknown> {
  const vendors = Array.isArray(side.metadata.vendors) ? side.metadata.vendors : [];
  const metadata = { ...side.metadata, vendors: vendors.slice(0, MAX_VENDORS).map(({ clean_sample: _, ...v }) => v), vendor_count: vendors.length };
  const text =
    typeof head.text === 'string' && head.text.length > MAX_TEXT
      ? `${head.text.slice(0, MAX_TEXT)}\n\n… (cut here: the whole result is in the attached workbook)`
      : head.text;
  const emails = side.emails.map((e) => ({ type: e.type, vendor: e.vendor, to: e.to, subject: e.subject, body: e.body }));
  for (let n = MAX_LISTED; ; n = Math.floor(n / 2)) {
    const out = {
      ...head,
      ...(text !== undefined ? { text } : {}),
      metadata,
      discrepancy_count: side.discrepencies.length,
      unmatched_count: side.unmatched_records.length,
      listed: {
        discrepancies: Math.min(n, side.discrepencies.length),
        unmatched_records: Math.min(n, side.unmatched_records.length),
        emails: Math.min(n, emails.length),
      },
      discrepancies: side.discrepencies.slice(0, n),
      unmatched_records: side.unmatched_records.slice(0, n),
      emails: emails.slice(0, n),
    };
    if (n === 0 || Buffer.byteLength(JSON.stringify(out)) <= OUTPUT_BUDGET_BYTES) return out;
  }
}

/**
 * flowmatic_ai:reconcile_invoices: compares the run's invoice CSV with its purchase-order CSV
 * (or checks the invoices alone) using the owner's saved config for the combination, as the
 * reconciliation page does, and passes on the result with a subject and text for the e-mail
 * step (its "to" is the run's "email" field when given).
 */
export function reconciliationSteps(reconciliation: InvoiceReconciliationService) {
  return [
    defineAction({
      provider: AI_PROVIDER,
      action: 'reconcile_invoices',
      title: 'Reconcile the invoices',
      description: "Compares the run's invoice CSV with its purchase-order CSV (or checks the invoices alone) with the owner's saved config.",
      async run(input, ctx) {
        const given = (input as { files?: unknown } | null)?.files;
        const { invoices, orders } = pickFiles(Array.isArray(given) ? (given as FileRef[]) : ctx.trigger.files);
        const read = async (f: FileRef) => ({ name: f.name, data: await ctx.files.read(ctx.userId, f.bucket, f.key) });
        let result;
        try {
          result = await reconciliation.compare(ctx.userId, { invoices: await read(invoices), orders: orders ? await read(orders) : undefined });
        } catch (error) {
          if (error instanceof HttpError && error.statusCode === 400) throw new PermanentStepError(error.message);
          throw error;
        }
        const saved = result.config === 'saved config';
        const side = (saved ? result.custom_config : result.default) as unknown as ComparisonSide;
        const to = stringField(ctx.trigger.data, 'email', 'to');
        const resultFile = await keepResult(ctx, side, saved);
        return boundedOutput(side, {
          ...(to ? { to } : {}),
          ...report(side),
          config: saved ? 'saved config' : 'detected',
          result_file: resultFile,
        });
      },
    }),
  ];
}
