import {
  ConfigStore,
  HttpError,
  InvoiceReconciliation,
  T,
  base64BodyLimit,
  configTableMigration,
  defineServerPlugin,
  downloadUrl,
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
import type { ComparisonResult, ComparisonSide } from './engine/compare';
import { MAX_PAGE_SIZE, PAGE_SIZE, SORT_VALUES, type RowTable, type SideName, type SortDirection } from './paged';
import { ResultStore } from './result-store';

export const RECONCILIATION_COMBINATION = 10;
export const CONFIG_PATH = '/api/platform/invoiceReconciliationConfig';
export const CONFIG_TABLE = 'invoice_reconciliation_configs';

const SIDES = ['default', 'custom_config'];
const VIEW_QUERY = { type: 'object', additionalProperties: false, properties: { view: { type: 'string', enum: ['pages'] } } };
const RESULT_PARAMS = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$' } },
};
const ROWS_QUERY = {
  type: 'object',
  required: ['side', 'table'],
  additionalProperties: false,
  properties: {
    side: { type: 'string', enum: SIDES },
    table: { type: 'string', enum: ['discrepancies', 'unmatched'] },
    offset: { type: 'string', pattern: '^[0-9]{1,9}$' },
    limit: { type: 'string', pattern: '^[0-9]{1,4}$' },
    sort: { type: 'string', enum: [...new Set([...Object.keys(SORT_VALUES.discrepancies), ...Object.keys(SORT_VALUES.unmatched)])] },
    direction: { type: 'string', enum: ['ascending', 'descending'] },
  },
};
const DOWNLOAD_BODY = {
  type: 'object',
  required: ['side', 'format'],
  additionalProperties: false,
  properties: {
    side: { type: 'string', enum: SIDES },
    format: { type: 'string', enum: ['csv', 'xlsx'] },
    table: { type: 'string', enum: ['metadata', 'discrepancies', 'unmatched', 'emails'] },
  },
};

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
  needs: { db: T.Db, config: T.ServerConfig, reconciliation: InvoiceReconciliation, files: T.FileStore },
  steps: ({ reconciliation }) => reconciliationSteps(reconciliation),
  migrations: [configTableMigration('invoice-reconciliation/0001_configs', CONFIG_TABLE)],
  routes(app, { db, config, reconciliation, files }) {
    const store = new ConfigStore(db, CONFIG_TABLE);
    registerConfigRoutes(app, { path: CONFIG_PATH, store, configSchema, requestSchema: configRequestSchema, combinations: [RECONCILIATION_COMBINATION] });
    const bodyLimit = base64BodyLimit(2, config.maxUploadBytes);

    const results = new ResultStore(files);

    // ?view=pages (the page): the result is kept on the server and the reply is its summary and first page of rows
    app.post<{ Body: ReconciliationComparisonRequest; Querystring: { view?: 'pages' } }>(
      '/api/platform/invoice_reconciliation/comparison',
      {
        auth: 'user',
        bodyLimit,
        schema: { body: comparisonRequestSchema, querystring: VIEW_QUERY },
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (request) => {
        const owner = userOf(request).id;
        const result = await reconciliation.comparison(owner, request.body);
        return request.query.view === 'pages' ? results.keep(owner, result as unknown as ComparisonResult) : result;
      },
    );

    app.get<{
      Params: { id: string };
      Querystring: { side: SideName; table: RowTable; offset?: string; limit?: string; sort?: string; direction?: SortDirection };
    }>(
      '/api/plugins/invoice-reconciliation/results/:id/rows',
      { auth: 'user', schema: { params: RESULT_PARAMS, querystring: ROWS_QUERY } },
      async (request) => {
        const { side, table, sort, direction } = request.query;
        const limit = Number(request.query.limit ?? PAGE_SIZE);
        if (limit < 1 || limit > MAX_PAGE_SIZE) throw new HttpError(400, `Ask for 1 to ${MAX_PAGE_SIZE} rows at a time.`);
        return results.rows(userOf(request).id, request.params.id, { side, table, offset: Number(request.query.offset ?? 0), limit, sort, direction });
      },
    );

    // a download built here from the kept result; the answer is a short-lived link the browser follows
    app.post<{ Params: { id: string }; Body: { side: SideName; format: ExportFormat; table?: ExportTableName } }>(
      '/api/plugins/invoice-reconciliation/results/:id/download',
      { auth: 'user', schema: { params: RESULT_PARAMS, body: DOWNLOAD_BODY }, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
      async (request) => {
        const user = userOf(request);
        const { side, format, table } = request.body;
        if (format === 'csv' && !table) throw new HttpError(400, 'Choose the table to download as CSV: metadata, discrepancies, unmatched or emails.');
        const stored = await results.download(user.id, request.params.id, side, format, table);
        return { name: stored.originalName, url: downloadUrl(user, stored, config.secretKey) };
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
