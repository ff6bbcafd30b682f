import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Body1, Button, Caption1, MessageBar, MessageBarBody, MessageBarTitle, Spinner, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import { DocumentSearch20Regular } from '@fluentui/react-icons/svg/document-search';
import { Play20Regular } from '@fluentui/react-icons/svg/play';
import { DocumentPdf20Regular } from '@fluentui/react-icons/svg/document-pdf';
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
  type UploadedFile,
  type WorkflowViewProps,
  userMessage,
} from '../../src/app';
import { InvoiceResult, type InvoiceResultData } from './InvoiceResult';
import { INVOICE_WORKFLOW, runInvoiceWorkflow } from './run-workflow';

/** How often the page asks about a running invoice job (the spec gives no interval for 10004). */
export const INVOICE_POLL_MS = 1500;
export const UPLOAD_FIRST_MESSAGE = 'Upload the invoice first, then process it.';
/** Puts a copy of the invoice shipped with the app in the user's files (plugins/sample-data). */
export const SAMPLE_INVOICE_PATH = '/api/plugins/sample-data/invoice';
/** `?sample=invoice` (the home page's first-run link) tries the sample as soon as the page opens. */
export const SAMPLE_QUERY = 'sample';
export const SAMPLE_FAILED_MESSAGE = 'The sample invoice could not be loaded. Please try again in a moment.';

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
  sample: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: '8px 12px',
    padding: '10px 12px',
    border: `1px dashed ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
  },
});

/** An XML file (an e-invoice): its preview is the PDF it may carry. */
function isXmlFile(file: File): boolean {
  return /\.xml$/i.test(file.name) || /[/+]xml$/.test(file.type);
}

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
  /** the uploaded file's preview: its image, or `none` for an XML e-invoice (no page to show) */
  const [preview, setPreview] = useState<{ url?: string; loading?: boolean; error?: string; none?: boolean }>();
  const [error, setError] = useState<string>();
  const [job, setJob] = useState<{ progress: number; message: string }>();
  const [result, setResult] = useState<InvoiceResultData>();
  /** the last Run Workflow press: in flight, then what it really did (its job followed to the end, or why nothing ran) */
  const [run, setRun] = useState<{ running?: boolean; outcome?: RunOutcome }>({});
  const stop = useRef<AbortController>(undefined);
  /** the sample invoice in use (its name), or true while it is being put in the user's files */
  const [sample, setSample] = useState<string | true>();
  const [params, setParams] = useSearchParams();
  const sampleAsked = useRef(false);

  useEffect(() => () => stop.current?.abort(), []);

  // the home page's "Try it with a sample invoice" opens this page with ?sample=invoice: one click to a result
  useEffect(() => {
    if (params.get(SAMPLE_QUERY) !== 'invoice' || sampleAsked.current) return;
    sampleAsked.current = true;
    const next = new URLSearchParams(params);
    next.delete(SAMPLE_QUERY);
    setParams(next, { replace: true });
    void trySample();
  }, [params]);

  // the preview of the uploaded file: fetched once per upload, its object URL revoked after
  useEffect(() => {
    const uploaded = upload.uploaded;
    if (!uploaded) return setPreview(undefined);
    const xml = !!upload.file && isXmlFile(upload.file);
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
      // an XML e-invoice that carries no PDF has no page: 415, said as such
      .catch((e: Error & { status?: number }) => alive && setPreview(xml && e.status === 415 ? { none: true } : { error: e.message }));
    return () => {
      alive = false;
      if (url) URL.revokeObjectURL?.(url);
    };
  }, [files, upload.uploaded]);

  async function process(target: UploadedFile | undefined = upload.uploaded) {
    setError(undefined);
    setResult(undefined);
    if (!target) return setError(UPLOAD_FIRST_MESSAGE);
    stop.current?.abort();
    const controller = new AbortController();
    stop.current = controller;
    setJob({ progress: 0, message: 'Starting the extraction' });
    try {
      let reply = await api.post<Reply>('/api/service/extract_data/', { key: target.key, bucket: target.bucket, wait: 0 });
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

  /** Puts the bundled sample invoice in the user's files, as an upload would, and processes it. */
  async function trySample() {
    setError(undefined);
    setResult(undefined);
    setRun({});
    setSample(true);
    try {
      const uploaded = await api.post<UploadedFile & { name: string }>(SAMPLE_INVOICE_PATH, {});
      setSample(uploaded.name);
      setUpload({ uploaded });
      await process(uploaded);
    } catch (e) {
      setSample(undefined);
      setError(userMessage(e, SAMPLE_FAILED_MESSAGE));
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

  const busy = job !== undefined || sample === true;
  const fileName = upload.file?.name ?? (typeof sample === 'string' && upload.uploaded ? sample : undefined);
  const xmlFile = !!upload.file && isXmlFile(upload.file);
  return (
    <div className={s.root} data-workflow={workflowId}>
      <div className={s.sample} role="group" aria-label="Sample invoice">
        <Body1>No invoice at hand? Read a real one that comes with the app.</Body1>
        <Button icon={sample === true ? <Spinner size="tiny" /> : <DocumentPdf20Regular />} onClick={() => void trySample()} disabled={busy}>
          Try it with a sample invoice
        </Button>
      </div>
      <DocumentUploadForm
        workflow={workflowId}
        noun="Invoice"
        busy={busy}
        eInvoices
        onChange={(next) => {
          setUpload(next);
          setSample(undefined);
          setResult(undefined);
          setRun({});
        }}
        onError={setError}
      >
        <Button appearance="primary" icon={<DocumentSearch20Regular />} onClick={() => void process()} disabled={busy}>
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
            {preview?.url && (
              <img
                className={s.image}
                src={preview.url}
                alt={xmlFile ? `The PDF the e-invoice ${fileName} carries, first page` : `The uploaded invoice${fileName ? ` ${fileName}` : ''}, first page`}
              />
            )}
            {preview?.error && <Caption1 className={s.muted}>The preview could not be shown: {preview.error}</Caption1>}
            {preview?.none && (
              <Caption1 className={s.muted} data-testid="no-preview">
                {fileName} is an XML e-invoice that carries no PDF: it has no page to show, its data is the invoice.
              </Caption1>
            )}
            {preview?.url && <Caption1 className={s.muted}>{xmlFile ? `${fileName}: the PDF it carries` : fileName}</Caption1>}
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
