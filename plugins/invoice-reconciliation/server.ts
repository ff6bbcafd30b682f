import {
  ConfigStore,
  HttpError,
  InvoiceReconciliation,
  T,
  base64BodyLimit,
  configTableMigration,
  defineServerPlugin,
  provide,
  registerConfigRoutes,
  userOf,
  type ReconciliationComparisonRequest,
} from '../../src/server';
import { contribute, WorkflowUploads } from '../../src/server';
import { reconciliationService, reconciliationSteps } from './automation-actions';
import comparisonRequestSchema from '../../schemas/invoice-reconciliation/comparison-request.schema.json';
import configRequestSchema from '../../schemas/invoice-reconciliation/config-request.schema.json';
import configSchema from '../../schemas/invoice-reconciliation/config.schema.json';
import exportRequestSchema from '../../schemas/invoice-reconciliation/export-request.schema.json';
import { catalogue } from './catalogue';
import { exportSide, type ExportFormat, type ExportTableName } from './export-side';
import type { ComparisonSide } from './engine/compare';

export const RECONCILIATION_COMBINATION = 10;
export const CONFIG_PATH = '/api/platform/invoiceReconciliationConfig';
export const CONFIG_TABLE = 'invoice_reconciliation_configs';

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
      reconciliationService({
        store: new ConfigStore(get(T.Db), CONFIG_TABLE),
        text: get(T.TextGenerator),
        combinationId: RECONCILIATION_COMBINATION,
        configSchema,
        maxUploadBytes: get(T.ServerConfig).maxUploadBytes,
      }),
    ),
  ],
  needs: { db: T.Db, config: T.ServerConfig, reconciliation: InvoiceReconciliation },
  steps: ({ reconciliation }) => reconciliationSteps(reconciliation),
  migrations: [configTableMigration('invoice-reconciliation/0001_configs', CONFIG_TABLE)],
  routes(app, { db, config, reconciliation }) {
    const store = new ConfigStore(db, CONFIG_TABLE);
    registerConfigRoutes(app, { path: CONFIG_PATH, store, configSchema, requestSchema: configRequestSchema, combinations: [RECONCILIATION_COMBINATION] });
    const bodyLimit = base64BodyLimit(2, config.maxUploadBytes);

    app.post<{ Body: ReconciliationComparisonRequest }>(
      '/api/platform/invoice_reconciliation/comparison',
      { auth: 'user', bodyLimit, schema: { body: comparisonRequestSchema }, config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
      async (request) => reconciliation.comparison(userOf(request).id, request.body),
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
