import { Suspense, lazy, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Field, MessageBar, MessageBarBody, MessageBarTitle, Spinner, Subtitle1, makeStyles } from '@fluentui/react-components';
import {
  ChunkBoundary,
  ConfigCard,
  fileToBase64,
  Panel,
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
import configSchema from '../../schemas/financial-analysis/config.schema.json';
import type { AnalysisReport, FocusArea } from './engine/analysis';

/** The report (tabs, tables, findings) shows only after an analysis: it loads when one starts. */
const loadReport = () => import(/* webpackChunkName: "financial-report" */ './ui/FinancialReport');
const FinancialReport = lazy(() => loadReport().then((m) => ({ default: m.FinancialReport })));

export const CONFIG_PATH = '/api/platform/financialAnalysisConfig';
export const START_PATH = '/api/platform/financial_analysis/start_comparison';
export const COMPLETE_PATH = '/api/financial-analysis/complete/';
/** Job status is polled every 7 seconds (spec 9). */
export const POLL_MS = 7000;
export const TEST_FAILED = 'Test Failed, check your file';
export const STATEMENT_TYPES = 'Only CSV, XLSX or PDF statements can be uploaded.';

interface Config {
  SELECTED_FOCUS_AREA: FocusArea;
}

interface CompleteReply {
  status: 'RUNNING' | 'COMPLETE' | 'FAILED';
  report?: { default: AnalysisReport | null; custom_config: AnalysisReport };
  message?: string;
}

const useStyles = makeStyles({
  root: { display: 'grid', gap: '16px', minWidth: 0 },
  card: { display: 'grid', gap: '12px', padding: '16px' },
  input: { maxWidth: '100%' },
});

/** Why Test and Run are disabled (spec 5: a document, a saved config, no unsaved changes), or null. */
export function analysisBlocker(hasDocument: boolean, hasConfig: boolean, dirty: boolean): string | null {
  if (!hasDocument) return 'Upload a statement to test or run.';
  if (!hasConfig) return 'Save a focus area to test or run.';
  if (dirty) return 'Save your changes to test or run.';
  return null;
}

/**
 * Combination 11 (spec 2, 'financial analysis view'): a statement upload (CSV, XLSX or PDF with
 * a text layer) and the focus area as an rjsf config form (SELECTED_FOCUS_AREA); Test starts the
 * default and custom jobs and polls every 7 s until COMPLETE (the report) or FAILED
 * ('Test Failed, check your file'); Run posts the statement to the recipe's webhook.
 */
export default function FinancialAnalysisView({ combinationId, pollMs = POLL_MS }: CombinationViewProps & { pollMs?: number }) {
  const s = useStyles();
  const api = useApi();
  const session = useSession();
  const env = useEnvironment();
  const config = useSavedConfig<Config>(CONFIG_PATH, combinationId);
  const [file, setFile] = useState<File>();
  const [fileError, setFileError] = useState<string>();
  const [current, setCurrent] = useState<Partial<Config>>();
  const [phase, setPhase] = useState<'idle' | 'starting' | 'polling'>('idle');
  const [report, setReport] = useState<CompleteReply['report']>();
  const [failure, setFailure] = useState<{ title: string; detail?: string }>();
  const [running, setRunning] = useState(false);
  /** what the last Run Workflow press really did (the run's job, or why nothing ran) */
  const [runOutcome, setRunOutcome] = useState<RunOutcome>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const dirty = current !== undefined && config.isDirty(current);
  const blocker = analysisBlocker(Boolean(file), config.saved !== undefined, dirty);

  function choose(e: ChangeEvent<HTMLInputElement>) {
    const chosen = e.target.files?.[0];
    setFileError(undefined);
    if (chosen && !/\.(csv|xlsx|pdf)$/i.test(chosen.name)) {
      e.target.value = '';
      setFile(undefined);
      return setFileError(STATEMENT_TYPES);
    }
    setFile(chosen);
  }

  function poll(wfId: string) {
    timer.current = setTimeout(async () => {
      try {
        const reply = await api.post<CompleteReply>(COMPLETE_PATH, { jobId: { wf_id: wfId } });
        if (reply.status === 'COMPLETE' && reply.report) {
          setReport(reply.report);
          setPhase('idle');
        } else if (reply.status === 'FAILED') {
          setFailure({ title: TEST_FAILED, detail: reply.message });
          setPhase('idle');
        } else poll(wfId);
      } catch (e) {
        setFailure({ title: (e as Error).message });
        setPhase('idle');
      }
    }, pollMs);
  }

  async function test() {
    if (!file) return;
    clearTimeout(timer.current);
    setPhase('starting');
    void loadReport().catch(() => undefined);
    setFailure(undefined);
    setReport(undefined);
    setRunOutcome(undefined);
    try {
      const reply = await api.post<{ jobId?: { wf_id?: string }; message?: string }>(START_PATH, {
        combination_id: combinationId,
        file_name: file.name,
        file_binary: await fileToBase64(file),
        default: true,
      });
      const wfId = reply?.jobId?.wf_id;
      if (!wfId) throw new Error(reply?.message || TEST_FAILED);
      setPhase('polling');
      poll(wfId);
    } catch (e) {
      setFailure({ title: (e as Error).message });
      setPhase('idle');
    }
  }

  async function run() {
    if (!file) return;
    setRunning(true);
    setRunOutcome(undefined);
    try {
      const outcome = await runWorkflow(
        api,
        session.workatoId,
        combinationId,
        { combination_id: combinationId, file_name: file.name, file_binary: await fileToBase64(file) },
        env.apiBase,
      );
      setRunOutcome(outcome);
    } catch (e) {
      console.error('Run failed', e);
      setRunOutcome({ kind: 'failed', error: userMessage(e, 'The workflow could not be run.') });
    } finally {
      setRunning(false);
    }
  }

  const busy = phase !== 'idle';
  return (
    <div className={s.root}>
      <Panel className={s.card}>
        <Subtitle1 as="h2">Statement</Subtitle1>
        <Field
          label="Financial statement (CSV, XLSX or PDF)"
          validationState={fileError ? 'error' : file ? 'success' : 'none'}
          validationMessage={fileError ?? (file ? `${file.name} (${Math.max(1, Math.round(file.size / 1024))} KB)` : undefined)}
          hint="An income statement, balance sheet or cash-flow statement with the periods as columns; a PDF needs a text layer."
        >
          <input
            className={s.input}
            type="file"
            accept=".csv,.xlsx,.pdf,text/csv,application/pdf,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            aria-label="Financial statement"
            onChange={choose}
          />
        </Field>
      </Panel>

      <ConfigCard<Config>
        config={config}
        schema={configSchema}
        idPrefix="financial-analysis"
        onChange={setCurrent}
        onSaved={(d) => {
          setRunOutcome(undefined);
          setCurrent(d);
        }}
        actions={[
          { label: 'Test', onClick: test, disabled: Boolean(blocker) || busy },
          { label: 'Run', onClick: run, disabled: Boolean(blocker) || running, primary: true },
        ]}
        busyLabel={busy ? 'Analysing the statement...' : undefined}
        hint={blocker}
      />
      <RunWorkflowResult outcome={runOutcome} retry={() => void run()} />

      {failure && (
        <MessageBar intent="error" role="alert" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>{failure.title}</MessageBarTitle>
            {failure.detail}
          </MessageBarBody>
        </MessageBar>
      )}
      {report && !busy && (
        <ChunkBoundary
          fallback={
            <MessageBar intent="error" layout="multiline">
              <MessageBarBody>The report could not be loaded: reload the page to see it.</MessageBarBody>
            </MessageBar>
          }
        >
          <Suspense fallback={<Spinner label="Loading the report..." />}>
            <FinancialReport report={report} />
          </Suspense>
        </ChunkBoundary>
      )}
    </div>
  );
}
