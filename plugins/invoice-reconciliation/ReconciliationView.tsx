import { Suspense, lazy, startTransition, useCallback, useMemo, useState, type ChangeEvent } from 'react';
import { Caption1, Field, MessageBar, MessageBarBody, Spinner, Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import {
  ConfigCard,
  Panel,
  fileToBase64,
  runWorkflow,
  RunWorkflowResult,
  useApi,
  useEnvironment,
  useSavedConfig,
  useSession,
  type CombinationViewProps,
  type RunOutcome,
  userMessage,
} from '../../src/app';
import { toPythonLiteral } from '../../src/core';
import configSchema from '../../schemas/invoice-reconciliation/config.schema.json';
import type { ReconciliationConfig } from './engine/compare';
import type { PagedComparison, RowTable, RowsPage, SideName } from './paged';
import type { LoadRows, TableName } from './ui/ComparisonResults';
import type { PageSort } from './ui/PagedTable';
import { csvHeaderRow } from './ui/files';

/** The results (tabs, tables) show only after Test Configuration: they load when a test starts. */
const loadResults = () => import(/* webpackChunkName: "reconciliation-results" */ './ui/ComparisonResults');
const ComparisonResults = lazy(() => loadResults().then((m) => ({ default: m.ComparisonResults })));

export const CONFIG_PATH = '/api/platform/invoiceReconciliationConfig';
export const COMPARISON_PATH = '/api/platform/invoice_reconciliation/comparison';
/** The results kept on the server: `${RESULTS_PATH}/{id}/rows` (a page of a table) and `/download` (a link to a file built there). */
export const RESULTS_PATH = '/api/plugins/invoice-reconciliation/results';
export const CSV_ONLY = 'Only .csv files can be uploaded.';

type Config = Required<Omit<ReconciliationConfig, 'TOLERANCE'>>;

interface Upload {
  file: File;
  headers: string[];
}

const useStyles = makeStyles({
  root: { display: 'grid', gap: '16px', minWidth: 0 },
  card: { display: 'grid', gap: '12px', padding: '16px' },
  files: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 240px), 1fr))', gap: '12px' },
  hint: { color: tokens.colorNeutralForeground3 },
  input: { maxWidth: '100%' },
});

/** The rjsf schema of the config: the key fields become choice lists of the uploaded files' header rows. */
export function configFormSchema(invoiceHeaders: string[] | undefined, orderHeaders: string[] | undefined, current: Partial<Config>) {
  const schema = structuredClone(configSchema) as { properties: Record<string, Record<string, unknown>> };
  const choices = (headers: string[] | undefined, value: string | undefined) => (headers ? [...new Set([...headers, ...(value ? [value] : [])])] : undefined);
  const invoiceChoices = choices(invoiceHeaders, current.INVOICE_PRIMARY_KEY);
  const orderChoices = choices(orderHeaders, current.PURCHASE_ORDER_PRIMARY_KEY);
  if (invoiceChoices) schema.properties.INVOICE_PRIMARY_KEY.enum = invoiceChoices;
  if (orderChoices) schema.properties.PURCHASE_ORDER_PRIMARY_KEY.enum = orderChoices;
  return schema;
}

const UI_SCHEMA = {
  'ui:order': [
    'INVOICE_PRIMARY_KEY',
    'PURCHASE_ORDER_PRIMARY_KEY',
    'EMAIL_TONE_OF_VOICE_NOT_MATCHED',
    'EMAIL_TONE_OF_VOICE_MATCHED',
    'GENERATE_EMAIL_FOR_NOT_MATCHED',
    'GENERATE_EMAIL_FOR_MATCHED',
    'GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED',
  ],
  INVOICE_PRIMARY_KEY: { 'ui:placeholder': 'Detect from the header row' },
  PURCHASE_ORDER_PRIMARY_KEY: { 'ui:placeholder': 'Detect from the header row' },
};

/** Why Test Configuration is disabled (spec 5), or null when it may run. */
export function testBlocker(hasConfig: boolean, hasInvoice: boolean, dirty: boolean): string | null {
  if (!hasConfig) return 'Save the config to test it.';
  if (!hasInvoice) return 'Upload the invoice file to test the config.';
  if (dirty) return 'Save your changes to test them.';
  return null;
}

/** Why Run Workflow is disabled (spec 5), or null when it may run. */
export function runBlocker(hasConfig: boolean, hasInvoice: boolean, hasOrders: boolean, dirty: boolean): string | null {
  if (!hasInvoice || !hasOrders) return 'Upload both files to run the workflow.';
  if (!hasConfig) return 'Save the config to run the workflow.';
  if (dirty) return 'Save your changes to run the workflow.';
  return null;
}

/**
 * Combination 10 (spec 2, 'Invoice reconciliation view'): the invoice and purchase-order .csv
 * uploads, whose header rows give the key choices of the rjsf config form; Save config (create,
 * then update; 'Config Saved' for 3 s), Test Configuration (the comparison on the uploaded files,
 * default and custom side by side) and Run Workflow (the recipe's webhook), each enabled by the
 * rules of spec section 5.
 */
export default function ReconciliationView({ combinationId }: CombinationViewProps) {
  const s = useStyles();
  const api = useApi();
  const session = useSession();
  const env = useEnvironment();
  const config = useSavedConfig<Config>(CONFIG_PATH, combinationId);
  const [invoice, setInvoice] = useState<Upload>();
  const [orders, setOrders] = useState<Upload>();
  const [fileError, setFileError] = useState<{ which: 'invoice' | 'orders'; message: string }>();
  const [current, setCurrent] = useState<Partial<Config>>();
  const [result, setResult] = useState<PagedComparison>();
  const [testing, setTesting] = useState(false);
  const [running, setRunning] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<string>();
  /** what the last Run Workflow press really did (the run's job, or why nothing ran) */
  const [runOutcome, setRunOutcome] = useState<RunOutcome>();

  const formData = current ?? config.saved ?? {};
  const schema = useMemo(() => configFormSchema(invoice?.headers, orders?.headers, formData), [invoice?.headers, orders?.headers, formData]);
  const hasConfig = config.saved !== undefined;
  const dirty = current !== undefined && config.isDirty(current);
  const testWhy = testBlocker(hasConfig, Boolean(invoice), dirty);
  const runWhy = runBlocker(hasConfig, Boolean(invoice), Boolean(orders), dirty);

  async function choose(which: 'invoice' | 'orders', e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    const set = which === 'invoice' ? setInvoice : setOrders;
    setFileError(undefined);
    if (!file) return set(undefined);
    if (!/\.csv$/i.test(file.name)) {
      e.target.value = '';
      set(undefined);
      return setFileError({ which, message: CSV_ONLY });
    }
    try {
      set({ file, headers: await csvHeaderRow(file, file.name) });
    } catch (err) {
      e.target.value = '';
      set(undefined);
      setFileError({ which, message: (err as Error).message });
    }
  }

  async function test() {
    if (!invoice) return;
    void loadResults().catch(() => undefined);
    setTesting(true);
    setError(undefined);
    setRunOutcome(undefined);
    try {
      const body: Record<string, unknown> = { combination_id: combinationId, file1_name: invoice.file.name, file1_binary: await fileToBase64(invoice.file) };
      if (orders) Object.assign(body, { file2_name: orders.file.name, file2_binary: await fileToBase64(orders.file) });
      // ?view=pages: the server keeps the whole result and answers its summary and first page of rows
      const reply = await api.post<PagedComparison>(`${COMPARISON_PATH}?view=pages`, body);
      // a transition: React renders the results in slices that yield to the browser, not one long task
      startTransition(() => {
        setResult(reply);
        setTesting(false);
      });
    } catch (e) {
      setResult(undefined);
      setError((e as Error).message);
      setTesting(false);
    }
  }

  async function run() {
    if (!invoice || !orders || !config.saved) return;
    setRunning(true);
    setRunOutcome(undefined);
    try {
      const outcome = await runWorkflow(
        api,
        session.workatoId,
        combinationId,
        {
          config_json: toPythonLiteral(config.saved),
          file1_name: invoice.file.name,
          file1_binary: await fileToBase64(invoice.file),
          file2_name: orders.file.name,
          file2_binary: await fileToBase64(orders.file),
        },
        env.apiBase,
      );
      setRunOutcome(outcome);
    } catch (e) {
      console.error('Run Workflow failed', e);
      setRunOutcome({ kind: 'failed', error: userMessage(e, 'The workflow could not be run.') });
    } finally {
      setRunning(false);
    }
  }

  const resultId = result?.result_id;
  const loadRows = useCallback<LoadRows>(
    (side: SideName, table: RowTable, offset: number, limit: number, sort: PageSort | undefined) => {
      const query = new URLSearchParams({
        side,
        table,
        offset: String(offset),
        limit: String(limit),
        ...(sort ? { sort: sort.column, direction: sort.direction } : {}),
      });
      return api.get<RowsPage<unknown>>(`${RESULTS_PATH}/${encodeURIComponent(resultId ?? '')}/rows?${query}`);
    },
    [api, resultId],
  );

  /** The file is built on the server from the kept result; the browser follows a short-lived link to it (nothing is assembled here). */
  async function download(side: SideName, format: 'csv' | 'xlsx', table?: TableName) {
    if (!resultId) return;
    setDownloading(true);
    setError(undefined);
    try {
      const file = await api.post<{ name: string; url: string }>(`${RESULTS_PATH}/${encodeURIComponent(resultId)}/download`, {
        side,
        format,
        ...(table ? { table } : {}),
      });
      const a = document.createElement('a');
      a.href = file.url.startsWith('/') ? env.apiBase + file.url : file.url;
      a.download = file.name;
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (e) {
      setError(userMessage(e, 'The file could not be prepared. Please try again.'));
    } finally {
      setDownloading(false);
    }
  }

  const fileField = (which: 'invoice' | 'orders', label: string, upload: Upload | undefined) => (
    <Field
      label={label}
      validationState={fileError?.which === which ? 'error' : upload ? 'success' : 'none'}
      validationMessage={fileError?.which === which ? fileError.message : upload ? `${upload.file.name}: ${upload.headers.length} columns` : undefined}
    >
      <input className={s.input} type="file" accept=".csv,text/csv" aria-label={label} onChange={(e) => void choose(which, e)} />
    </Field>
  );

  return (
    <div className={s.root}>
      {/* a plain surface (the file inputs are its only controls): Panel, without Card's code */}
      <Panel className={s.card}>
        <Subtitle1 as="h2">Files</Subtitle1>
        <div className={s.files}>
          {fileField('invoice', 'Invoice file (.csv)', invoice)}
          {fileField('orders', 'Purchase-order file (.csv)', orders)}
        </div>
        <Caption1 className={s.hint}>
          The header row of each file gives the key choices below. With only the invoice file, the test checks that file on its own.
        </Caption1>
      </Panel>

      <ConfigCard<Config>
        config={config}
        schema={schema}
        uiSchema={UI_SCHEMA}
        idPrefix="reconciliation"
        onChange={setCurrent}
        onSaved={(d) => {
          setRunOutcome(undefined);
          setCurrent(d);
        }}
        actions={[
          { label: 'Test Configuration', onClick: test, disabled: Boolean(testWhy) || testing },
          { label: 'Run Workflow', onClick: run, disabled: Boolean(runWhy) || running, primary: true },
        ]}
        busyLabel={testing ? 'Comparing...' : running ? 'Starting...' : undefined}
        hint={[testWhy, runWhy && runWhy !== testWhy ? runWhy : null].filter(Boolean).join(' ')}
      />
      <RunWorkflowResult outcome={runOutcome} retry={() => void run()} />

      {error && (
        <MessageBar intent="error" role="alert" layout="multiline">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {result && !testing && (
        <Suspense fallback={<Spinner label="Loading..." />}>
          <ComparisonResults
            result={result}
            loadRows={loadRows}
            onDownload={(side, format, table) => void download(side, format, table)}
            downloading={downloading}
          />
        </Suspense>
      )}
    </div>
  );
}
