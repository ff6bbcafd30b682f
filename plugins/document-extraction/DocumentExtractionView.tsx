import { useEffect, useRef, useState } from 'react';
import { Body1, Button, MessageBar, MessageBarBody, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import { DocumentSearch20Regular } from '@fluentui/react-icons/svg/document-search';
import { DocumentUploadForm, humaniseLabel, JobProgress, PagesRead, useApi, wait, type UploadState, type WorkflowViewProps, userMessage } from '../../src/app';

/** Spec section 4: the status is polled every 7 seconds. */
export const DOCUMENT_POLL_MS = 7000;
/** The time limit the page asks for, in minutes (spec section 7: timeout 5). */
export const DOCUMENT_TIMEOUT = 5;
export const UPLOAD_FIRST_MESSAGE = 'Upload the document first, then process it.';
export const NO_FIELDS_MESSAGE = 'No labelled fields were found in this document.';

interface StatusReply {
  Job_ID: string;
  Status: 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED';
  progress?: number;
  message?: string;
}

interface CompleteReply {
  Fields: { label: string; result: string }[];
  Job_ID: string;
  Status: string;
  bucket: string;
  key: string;
  pages?: number;
  pages_read?: number;
}

const useStyles = makeStyles({
  root: { display: 'grid', gap: '20px', maxWidth: '900px' },
  results: { display: 'grid', gap: '8px' },
  list: {
    display: 'grid',
    gridTemplateColumns: 'minmax(120px, max-content) 1fr',
    gap: '0',
    margin: 0,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    '@media (max-width: 560px)': { gridTemplateColumns: '1fr' },
  },
  term: {
    padding: '10px 12px',
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground2,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    '@media (max-width: 560px)': { borderBottom: 'none', paddingBottom: '0' },
  },
  value: { margin: 0, padding: '10px 12px', overflowWrap: 'anywhere', borderBottom: `1px solid ${tokens.colorNeutralStroke3}` },
});

/**
 * Workflow 10006 (spec sections 2 and 4): file pick, 'Upload Document', 'Process Document'.
 * Processing starts a job (extract → Job_ID), polls its status every 7 s with its progress
 * until SUCCEEDED, then fetches the Fields (complete) and lists them as label and result, the
 * labels with underscores turned into spaces and capitalised. A failure stops the loading and
 * shows the server's message.
 */
export default function DocumentExtractionView({ workflowId = 10006, pollMs = DOCUMENT_POLL_MS }: Partial<WorkflowViewProps> & { pollMs?: number }) {
  const s = useStyles();
  const api = useApi();
  const [upload, setUpload] = useState<UploadState>({});
  const [error, setError] = useState<string>();
  const [job, setJob] = useState<{ progress: number; message: string }>();
  const [fields, setFields] = useState<CompleteReply['Fields']>();
  const [pages, setPages] = useState<{ pages?: number; pagesRead?: number }>({});
  const stop = useRef<AbortController>(undefined);

  useEffect(() => () => stop.current?.abort(), []);

  async function process() {
    setError(undefined);
    setFields(undefined);
    if (!upload.uploaded) return setError(UPLOAD_FIRST_MESSAGE);
    stop.current?.abort();
    const controller = new AbortController();
    stop.current = controller;
    const { key, bucket } = upload.uploaded;
    setJob({ progress: 0, message: 'Starting the extraction' });
    try {
      const started = await api.post<{ Job_ID: string }>('/api/document-extraction/extract', { timeout: DOCUMENT_TIMEOUT, key, bucket });
      for (;;) {
        await wait(pollMs, controller.signal);
        const status = await api.post<StatusReply>('/api/document-extraction/status', { jobId: started.Job_ID });
        if (status.Status === 'FAILED') throw new Error(status.message || 'The extraction failed.');
        if (status.Status === 'SUCCEEDED') break;
        setJob({ progress: status.progress ?? 0, message: status.message ?? 'Processing' });
      }
      const done = await api.post<CompleteReply>('/api/document-extraction/complete', { jobId: started.Job_ID });
      setFields(Array.isArray(done.Fields) ? done.Fields : []);
      setPages({ pages: done.pages, pagesRead: done.pages_read });
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') return;
      setError(userMessage(e));
    } finally {
      if (stop.current === controller) setJob(undefined);
    }
  }

  const busy = job !== undefined;
  return (
    <div className={s.root} data-workflow={workflowId}>
      <DocumentUploadForm
        workflow={workflowId}
        noun="Document"
        busy={busy}
        onChange={(next) => {
          stop.current?.abort();
          setUpload(next);
          setFields(undefined);
        }}
        onError={setError}
      >
        <Button appearance="primary" icon={<DocumentSearch20Regular />} onClick={process} disabled={busy}>
          Process Document
        </Button>
      </DocumentUploadForm>
      {job && <JobProgress progress={job.progress} message={job.message} label="Extracting the document's fields" />}
      {error && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {fields && !busy && (
        <section className={s.results} aria-label="Extracted fields">
          <Subtitle2 as="h2">Extracted fields</Subtitle2>
          <PagesRead pages={pages.pages} pagesRead={pages.pagesRead} />
          {fields.length === 0 ? (
            <Body1>{NO_FIELDS_MESSAGE}</Body1>
          ) : (
            <dl className={s.list}>
              {fields.map((f, i) => (
                <div key={i} style={{ display: 'contents' }}>
                  <dt className={s.term}>{humaniseLabel(f.label)}</dt>
                  <dd className={s.value}>{f.result}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
      )}
    </div>
  );
}
