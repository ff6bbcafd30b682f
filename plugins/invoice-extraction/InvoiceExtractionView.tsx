import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, Caption1, MessageBar, MessageBarBody, MessageBarTitle, Spinner, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import { DocumentSearch20Regular } from '@fluentui/react-icons/svg/document-search';
import { Play20Regular } from '@fluentui/react-icons/svg/play';
import {
  DocumentUploadForm,
  JobProgress,
  RunWorkflowResult,
  useApi,
  useExtractionFiles,
  useSession,
  wait,
  type RunOutcome,
  type UploadState,
  type WorkflowViewProps,
  userMessage,
} from '../../src/app';
import { InvoiceResult, type InvoiceResultData } from './InvoiceResult';
import { INVOICE_WORKFLOW, runInvoiceWorkflow } from './run-workflow';

/** How often the page asks about a running invoice job (the spec gives no interval for 10004). */
export const INVOICE_POLL_MS = 1500;
export const UPLOAD_FIRST_MESSAGE = 'Upload the invoice first, then process it.';

type Reply = (InvoiceResultData & { Status: 'SUCCEEDED'; Job_ID: string }) | { Status: 'IN_PROGRESS'; Job_ID: string; progress: number; message: string };

const useStyles = makeStyles({
  root: { display: 'grid', gap: '20px', maxWidth: '1100px' },
  body: {
    display: 'grid',
    gridTemplateColumns: 'minmax(220px, 360px) 1fr',
    gap: '24px',
    alignItems: 'start',
    '@media (max-width: 760px)': { gridTemplateColumns: '1fr' },
  },
  figure: { margin: 0, display: 'grid', gap: '6px' },
  image: {
    width: '100%',
    height: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow4,
    backgroundColor: '#fff',
  },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The `combination` query parameter, or the combination the view was placed in, as a number. */
function useCombination(fromProps: number | undefined): number | undefined {
  const [params] = useSearchParams();
  const raw = params.get('combination');
  const fromQuery = raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
  return fromQuery ?? fromProps;
}

/**
 * Workflow 10004 (spec sections 2 and 5): file pick, 'Upload Invoice', 'Process Invoice'. Shows
 * the uploaded image (a PDF's first page rendered by the server), the invoice's non-list
 * fields under capitalised labels with their confidence, the line items as a table and a
 * warning when the totals disagree. Run Workflow sends the file to the user's recipe for the
 * combination the page was opened from; it is hidden for combination 1 and disabled without a file.
 */
export default function InvoiceExtractionView({
  workflowId = INVOICE_WORKFLOW,
  combinationId,
  pollMs = INVOICE_POLL_MS,
}: Partial<WorkflowViewProps> & { pollMs?: number }) {
  const s = useStyles();
  const api = useApi();
  const session = useSession();
  const files = useExtractionFiles();
  const combination = useCombination(combinationId);
  const [upload, setUpload] = useState<UploadState>({});
  const [preview, setPreview] = useState<{ url?: string; loading?: boolean; error?: string }>();
  const [error, setError] = useState<string>();
  const [job, setJob] = useState<{ progress: number; message: string }>();
  const [result, setResult] = useState<InvoiceResultData>();
  /** the last Run Workflow press: in flight, then what it really did (its job followed to the end, or why nothing ran) */
  const [run, setRun] = useState<{ running?: boolean; outcome?: RunOutcome }>({});
  const stop = useRef<AbortController>(undefined);

  useEffect(() => () => stop.current?.abort(), []);

  // the preview of the uploaded file: fetched once per upload, its object URL revoked after
  useEffect(() => {
    const uploaded = upload.uploaded;
    if (!uploaded) return setPreview(undefined);
    let alive = true;
    let url: string | undefined;
    setPreview({ loading: true });
    files
      .preview({ key: uploaded.key, bucket: uploaded.bucket })
      .then((u) => {
        url = u;
        if (alive) setPreview({ url: u });
        else URL.revokeObjectURL?.(u);
      })
      .catch((e: Error) => alive && setPreview({ error: e.message }));
    return () => {
      alive = false;
      if (url) URL.revokeObjectURL?.(url);
    };
  }, [files, upload.uploaded]);

  async function process() {
    setError(undefined);
    setResult(undefined);
    if (!upload.uploaded) return setError(UPLOAD_FIRST_MESSAGE);
    stop.current?.abort();
    const controller = new AbortController();
    stop.current = controller;
    setJob({ progress: 0, message: 'Starting the extraction' });
    try {
      let reply = await api.post<Reply>('/api/service/extract_data/', { key: upload.uploaded.key, bucket: upload.uploaded.bucket, wait: 0 });
      while (reply.Status === 'IN_PROGRESS') {
        setJob({ progress: reply.progress, message: reply.message });
        await wait(pollMs, controller.signal);
        reply = await api.post<Reply>('/api/plugins/invoice-extraction/status', { jobId: reply.Job_ID });
      }
      setResult(reply);
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') return;
      setError(userMessage(e));
    } finally {
      if (stop.current === controller) setJob(undefined);
    }
  }

  async function runWorkflow() {
    if (!upload.file) return;
    setRun({ running: true });
    try {
      setRun({ outcome: await runInvoiceWorkflow({ api, workatoId: session.workatoId }, upload.file, combination) });
    } catch (e) {
      console.warn('Run Workflow: the recipe could not be found', e);
      setRun({ outcome: { kind: 'failed', error: userMessage(e, 'The workflow could not be run.') } });
    }
  }

  const busy = job !== undefined;
  return (
    <div className={s.root} data-workflow={workflowId}>
      <DocumentUploadForm
        workflow={workflowId}
        noun="Invoice"
        busy={busy}
        onChange={(next) => {
          setUpload(next);
          setResult(undefined);
          setRun({});
        }}
        onError={setError}
      >
        <Button appearance="primary" icon={<DocumentSearch20Regular />} onClick={process} disabled={busy}>
          Process Invoice
        </Button>
        {combination !== 1 && (
          <Button icon={run.running ? <Spinner size="tiny" /> : <Play20Regular />} onClick={runWorkflow} disabled={!upload.file || run.running}>
            Run Workflow
          </Button>
        )}
      </DocumentUploadForm>
      <RunWorkflowResult outcome={run.outcome} retry={() => void runWorkflow()} />
      {job && <JobProgress progress={job.progress} message={job.message} label="Extracting the invoice's fields" />}
      {error && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>
            <MessageBarTitle>The invoice could not be processed</MessageBarTitle>
            {error}
          </MessageBarBody>
        </MessageBar>
      )}
      {(preview || result) && (
        <div className={s.body}>
          <figure className={s.figure}>
            {preview?.loading && <Spinner size="small" label="Loading the preview…" />}
            {preview?.url && <img className={s.image} src={preview.url} alt={`The uploaded invoice${upload.file ? ` ${upload.file.name}` : ''}, first page`} />}
            {preview?.error && <Caption1 className={s.muted}>The preview could not be shown: {preview.error}</Caption1>}
            {preview?.url && <Caption1 className={s.muted}>{upload.file?.name}</Caption1>}
          </figure>
          {result && !busy ? (
            <InvoiceResult data={result} />
          ) : (
            <Subtitle2 as="p" className={s.muted}>
              {busy ? 'Reading the invoice…' : "Press 'Process Invoice' to read its fields."}
            </Subtitle2>
          )}
        </div>
      )}
    </div>
  );
}
