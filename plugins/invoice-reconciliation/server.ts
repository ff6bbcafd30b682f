import {
  ConfigStore,
  CsvFormatError,
  HttpError,
  InvoiceReconciliation,
  T,
  badRequest,
  base64BodyLimit,
  configTableMigration,
  decodeBase64File,
  defineServerPlugin,
  provide,
  registerConfigRoutes,
  userOf,
} from '../../src/server';
import { contribute, WorkflowUploads } from '../../src/server';
import { reconciliationService, reconciliationSteps } from './automation-actions';
import comparisonRequestSchema from '../../schemas/invoice-reconciliation/comparison-request.schema.json';
import configRequestSchema from '../../schemas/invoice-reconciliation/config-request.schema.json';
import configSchema from '../../schemas/invoice-reconciliation/config.schema.json';
import exportRequestSchema from '../../schemas/invoice-reconciliation/export-request.schema.json';
import { catalogue } from './catalogue';
import { compareFiles, ReconciliationConfigError } from './engine/compare';
import { exportSide, type ExportFormat, type ExportTableName } from './export-side';
import type { ComparisonSide } from './engine/compare';

export const RECONCILIATION_COMBINATION = 10;
export const CONFIG_PATH = '/api/platform/invoiceReconciliationConfig';
export const CONFIG_TABLE = 'invoice_reconciliation_configs';

interface ComparisonBody {
  combination_id: number;
  file1_name: string;
  file1_binary: string;
  file2_name?: string | null;
  file2_binary?: string | null;
}

/** Only .csv uploads are compared (spec section 5). */
function requireCsvName(name: string, role: string): void {
  if (!/\.csv$/i.test(name.trim())) throw badRequest(`The ${role} file must be a .csv file; "${name}" is not.`);
}

/**
 * Invoice-to-purchase-order reconciliation: workflow 10012 and combination 10. Saved configs
 * (spec 7, Python-style config_json), the synchronous comparison of the uploaded CSV files
 * (default and custom config side by side) and the downloads of a result as CSV or XLSX. The
 * automation engine's flowmatic_ai:reconcile_invoices step runs the same comparison.
 */
export default defineServerPlugin({
  id: 'invoice-reconciliation',
  catalogue,
  contributes: [contribute(WorkflowUploads, { workflow: 10012, kinds: ['csv'] })],
  provides: [
    provide(InvoiceReconciliation, (get) =>
      reconciliationService({ store: new ConfigStore(get(T.Db), CONFIG_TABLE), text: get(T.TextGenerator), combinationId: RECONCILIATION_COMBINATION }),
    ),
  ],
  needs: { db: T.Db, text: T.TextGenerator, config: T.ServerConfig, reconciliation: InvoiceReconciliation },
  steps: ({ reconciliation }) => reconciliationSteps(reconciliation),
  migrations: [configTableMigration('invoice-reconciliation/0001_configs', CONFIG_TABLE)],
  routes(app, { db, text, config }) {
    const store = new ConfigStore(db, CONFIG_TABLE);
    registerConfigRoutes(app, { path: CONFIG_PATH, store, configSchema, requestSchema: configRequestSchema, combinations: [RECONCILIATION_COMBINATION] });
    const bodyLimit = base64BodyLimit(2, config.maxUploadBytes);

    app.post<{ Body: ComparisonBody }>(
      '/api/platform/invoice_reconciliation/comparison',
      { auth: 'user', bodyLimit, schema: { body: comparisonRequestSchema }, config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
      async (request) => {
        const user = userOf(request);
        const body = request.body;
        if (body.combination_id !== RECONCILIATION_COMBINATION)
          throw badRequest(`The comparison belongs to combination ${RECONCILIATION_COMBINATION}, not ${body.combination_id}.`);
        requireCsvName(body.file1_name, 'invoice');
        const invoiceBytes = decodeBase64File(body.file1_name, body.file1_binary, config.maxUploadBytes);
        let poCsv: { name: string; data: Uint8Array } | undefined;
        if (body.file2_binary) {
          const name = body.file2_name?.trim() || 'purchase-orders.csv';
          requireCsvName(name, 'purchase-order');
          poCsv = { name, data: decodeBase64File(name, body.file2_binary, config.maxUploadBytes) };
        }
        const saved = await store.forCombination(user.id, RECONCILIATION_COMBINATION);
        try {
          return await compareFiles({
            invoiceCsv: { name: body.file1_name, data: invoiceBytes },
            poCsv,
            config: saved?.config,
            textGenerator: text,
          });
        } catch (error) {
          if (error instanceof CsvFormatError || error instanceof ReconciliationConfigError) throw badRequest(error.message);
          throw error;
        }
      },
    );

    app.post<{ Body: { format: ExportFormat; table?: ExportTableName; side: 'default' | 'custom_config'; result: ComparisonSide } }>(
      '/api/plugins/invoice-reconciliation/export',
      { auth: 'user', bodyLimit, schema: { body: exportRequestSchema } },
      async (request) => {
        const { format, table, side, result } = request.body;
        if (format === 'csv' && !table) throw new HttpError(400, 'Choose the table to download as CSV: metadata, discrepancies, unmatched or emails.');
        const file = await exportSide(result, side, format, table);
        // JSON with the bytes as base64, so the browser's API client (JSON in, JSON out) can fetch it
        return { status: 'success', file_name: file.fileName, content_type: file.contentType, data: file.body.toString('base64') };
      },
    );
  },
});
