import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Body1, Button, Caption1, MessageBar, MessageBarBody, Spinner, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowLeft20Regular } from '@fluentui/react-icons/svg/arrow-left';
import { ArrowClockwise20Regular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { ArrowRepeatAll20Regular } from '@fluentui/react-icons/svg/arrow-repeat-all';
import { StepFiles, useApi, userMessage } from '../../src/app';
import { jobOf, jobsOf, rerunJob, retryJob, type JobStatus, type JobStep, type JobSummary, type StepStatus } from './automation-api';
import { formatDuration, formatInZone, type ZoneOffset } from './time-zone';

export const NO_JOBS = 'No jobs yet. A job is listed here each time the workflow runs.';
export const RETRY_LABEL = 'Retry from failed step';
export const RERUN_LABEL = 'Run again';
/** why 'Run again' is unavailable while the workflow is stopped (the server refuses it too) */
export const RERUN_STOPPED = 'The workflow is stopped: start it to run this job again.';
/** spec section 9: job status is checked every 7 seconds while a job is on its way */
const JOB_POLL_MS = 7_000;

const useStyles = makeStyles({
  root: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '12px', minWidth: 0 },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '8px' },
  row: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: '4px',
    width: '100%',
    textAlign: 'left',
    padding: '10px 12px',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    cursor: 'pointer',
    font: 'inherit',
    color: 'inherit',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  rowHead: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center', justifyContent: 'space-between' },
  meta: { display: 'flex', flexWrap: 'wrap', columnGap: '16px', rowGap: '2px', color: tokens.colorNeutralForeground2 },
  error: { color: tokens.colorPaletteRedForeground1, overflowWrap: 'anywhere' },
  summary: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: '8px' },
  steps: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '8px' },
  step: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: '4px',
    padding: '10px 12px',
    borderRadius: tokens.borderRadiusMedium,
    borderLeft: `3px solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground2,
    minWidth: 0,
  },
  dl: { display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: '12px', rowGap: '4px', margin: 0 },
  dt: { color: tokens.colorNeutralForeground3 },
  dd: { margin: 0, overflowWrap: 'anywhere' },
  title: { margin: 0 },
  output: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '6px', minWidth: 0 },
  groupTitle: { fontWeight: tokens.fontWeightSemibold },
  notes: { margin: 0, paddingLeft: '20px', color: tokens.colorPaletteDarkOrangeForeground1 },
  disclosure: {
    '& > summary': {
      cursor: 'pointer',
      color: tokens.colorBrandForegroundLink,
      width: 'fit-content',
      ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
    },
  },
  json: {
    margin: '6px 0 0',
    padding: '8px',
    maxHeight: '320px',
    overflow: 'auto',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
  jobTitle: {
    margin: 0,
    ':focus': { outline: 'none' },
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    fontWeight: tokens.fontWeightSemibold,
    overflowWrap: 'anywhere',
  },
});

const JOB_BADGE: Record<JobStatus, { label: string; color: 'success' | 'danger' | 'informative' | 'warning' }> = {
  queued: { label: 'Queued', color: 'informative' },
  running: { label: 'Running', color: 'warning' },
  succeeded: { label: 'Succeeded', color: 'success' },
  failed: { label: 'Failed', color: 'danger' },
};

const STEP_BADGE: Record<StepStatus, { label: string; color: 'success' | 'danger' | 'informative' | 'warning' | 'subtle' }> = {
  pending: { label: 'Pending', color: 'informative' },
  running: { label: 'Running', color: 'warning' },
  succeeded: { label: 'Succeeded', color: 'success' },
  failed: { label: 'Failed', color: 'danger' },
  skipped: { label: 'Skipped', color: 'subtle' },
};

function StatusBadge({ status, kind }: { status: string; kind: 'job' | 'step' }) {
  const b = kind === 'job' ? JOB_BADGE[status as JobStatus] : STEP_BADGE[status as StepStatus];
  return (
    <Badge appearance="tint" shape="rounded" color={b?.color ?? 'informative'}>
      {b?.label ?? status}
    </Badge>
  );
}

const messageOf = (e: unknown) => userMessage(e, 'Something went wrong. Please try again.');
const isActive = (s: string) => s === 'queued' || s === 'running';

/**
 * The recipe's 'jobs' tab: the jobs newest first (status, start, duration, error), each opening
 * to its steps; a failed job offers 'Retry from failed step' and 'Run again'. `openJobId`
 * (from ?job=) opens that job at once. Times are shown in the user's time zone.
 */
export function JobsPanel({
  recipeId,
  version,
  zone,
  openJobId,
  onOpenJob,
  running,
}: {
  recipeId: number;
  /** whether the workflow runs (false: 'Run again' is unavailable, and says why) */
  running?: boolean;
  /** changes when the jobs may have changed */
  version: number;
  zone: ZoneOffset | undefined;
  openJobId?: string;
  onOpenJob(jobId: string | undefined): void;
}) {
  const s = useStyles();
  const api = useApi();
  const [jobs, setJobs] = useState<JobSummary[]>();
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (openJobId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    jobsOf(api, recipeId).then(
      (list) => {
        if (!live) return;
        setJobs(list);
        setError(undefined);
        if (list.some((j) => isActive(j.status))) timer = setTimeout(() => setTick((t) => t + 1), JOB_POLL_MS);
      },
      (e) => {
        console.log(e);
        if (live) setError(messageOf(e));
      },
    );
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [api, recipeId, version, tick, openJobId]);

  if (openJobId)
    return <JobDetail jobId={openJobId} zone={zone} version={version} running={running} onBack={() => onOpenJob(undefined)} onOpenJob={onOpenJob} />;

  return (
    <section className={s.root} aria-labelledby="jobs-title">
      <Subtitle2 as="h3" id="jobs-title" className={s.title}>
        Jobs
      </Subtitle2>
      {error ? (
        <MessageBar layout="multiline" intent="error">
          <MessageBarBody>
            {error}{' '}
            <Button size="small" appearance="transparent" onClick={() => setTick((t) => t + 1)}>
              Try again
            </Button>
          </MessageBarBody>
        </MessageBar>
      ) : !jobs ? (
        <Spinner size="small" label="Loading jobs..." />
      ) : jobs.length === 0 ? (
        <Body1>{NO_JOBS}</Body1>
      ) : (
        <ul className={s.list} aria-label="Jobs">
          {jobs.map((j) => (
            <li key={j.id}>
              <button
                type="button"
                className={s.row}
                onClick={() => onOpenJob(j.id)}
                aria-label={`Job ${j.title}, ${JOB_BADGE[j.status]?.label ?? j.status}, started ${formatInZone(j.started_at ?? j.created_at, zone)}`}
              >
                <span className={s.rowHead}>
                  <Body1>{j.trigger_summary || j.title}</Body1>
                  <StatusBadge status={j.status} kind="job" />
                </span>
                <span className={s.meta}>
                  <Caption1>Started: {formatInZone(j.started_at ?? j.created_at, zone)}</Caption1>
                  <Caption1>Duration: {formatDuration(j.duration_ms)}</Caption1>
                  {j.attempt > 1 && <Caption1>Attempt {j.attempt}</Caption1>}
                </span>
                {j.error && <Caption1 className={s.error}>Error: {j.error}</Caption1>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What a step produced: each thing it made with its values (missing ones and ones to check marked), its warnings, and the full output behind a disclosure. */
export function StepOutput({ step }: { step: Pick<JobStep, 'index' | 'output_summary' | 'output_details' | 'output'> }) {
  const s = useStyles();
  if (!step.output_details) return step.output_summary ? <Caption1 className={s.summary}>Out: {step.output_summary}</Caption1> : null;
  return (
    <div className={s.output}>
      {step.output_details.map((g, i) => (
        <div key={i} className={s.output}>
          <Caption1 className={s.groupTitle}>{g.title}</Caption1>
          {g.items.length > 0 && (
            <dl className={s.dl}>
              {g.items.map((item, j) => (
                <Fragment key={j}>
                  <dt className={s.dt}>{item.label}</dt>
                  <dd className={s.dd}>
                    {item.state === 'missing' ? (
                      <Badge appearance="tint" shape="rounded" color="danger">
                        {item.value === 'empty' ? 'empty' : 'not found'}
                      </Badge>
                    ) : (
                      <>
                        {item.value}
                        {item.state === 'check' && (
                          <>
                            {' '}
                            <Badge appearance="tint" shape="rounded" color="warning">
                              needs a look
                            </Badge>
                          </>
                        )}
                      </>
                    )}
                  </dd>
                </Fragment>
              ))}
            </dl>
          )}
          {g.notes && g.notes.length > 0 && (
            <ul className={s.notes} aria-label="Warnings">
              {g.notes.map((n, j) => (
                <li key={j}>
                  <Caption1>{n}</Caption1>
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
      {step.output !== undefined && (
        <details className={s.disclosure}>
          <summary>
            <Caption1>Full output{step.index === 0 ? ' of the trigger' : ''}</Caption1>
          </summary>
          <pre className={s.json}>{JSON.stringify(step.output, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}

/** One job with its steps (step 0 is the trigger); a failed job can be retried or run again (not while the workflow is stopped). */
function JobDetail({
  jobId,
  zone,
  version,
  running,
  onBack,
  onOpenJob,
}: {
  jobId: string;
  zone: ZoneOffset | undefined;
  version: number;
  running?: boolean;
  onBack(): void;
  onOpenJob(jobId: string): void;
}) {
  const s = useStyles();
  const api = useApi();
  const [data, setData] = useState<{ job: JobSummary; steps: JobStep[] }>();
  const [error, setError] = useState<string>();
  const [actionError, setActionError] = useState<string>();
  const [busy, setBusy] = useState<'retry' | 'rerun'>();
  const [tick, setTick] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    jobOf(api, jobId).then(
      (d) => {
        if (!live) return;
        setData(d);
        setError(undefined);
        if (isActive(d.job.status)) timer = setTimeout(() => setTick((t) => t + 1), JOB_POLL_MS);
      },
      (e) => {
        console.log(e);
        if (live) setError(messageOf(e));
      },
    );
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [api, jobId, version, tick]);

  useEffect(() => {
    if (data) heading.current?.focus();
    // focus the heading once, when the job first shows
  }, [data?.job.id]);

  const act = useCallback(
    async (kind: 'retry' | 'rerun') => {
      setBusy(kind);
      setActionError(undefined);
      try {
        if (kind === 'retry') {
          await retryJob(api, jobId);
          setTick((t) => t + 1);
        } else {
          const r = await rerunJob(api, jobId);
          if (r?.job_id) onOpenJob(r.job_id);
        }
      } catch (e) {
        setActionError(messageOf(e));
      } finally {
        setBusy(undefined);
      }
    },
    [api, jobId, onOpenJob],
  );

  return (
    <section className={s.root} aria-labelledby="job-title">
      <div>
        <Button appearance="subtle" icon={<ArrowLeft20Regular />} onClick={onBack}>
          All jobs
        </Button>
      </div>
      {error ? (
        <MessageBar layout="multiline" intent="error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      ) : !data ? (
        <Spinner size="small" label="Loading the job..." />
      ) : (
        <>
          <div className={s.rowHead}>
            <h3 id="job-title" className={s.jobTitle} tabIndex={-1} ref={heading}>
              {data.job.title}
            </h3>
            <StatusBadge status={data.job.status} kind="job" />
          </div>
          <dl className={s.dl}>
            <dt className={s.dt}>Trigger</dt>
            <dd className={s.dd}>{data.job.trigger_summary || '–'}</dd>
            <dt className={s.dt}>Started</dt>
            <dd className={s.dd}>{formatInZone(data.job.started_at ?? data.job.created_at, zone)}</dd>
            <dt className={s.dt}>Completed</dt>
            <dd className={s.dd}>{formatInZone(data.job.completed_at, zone)}</dd>
            <dt className={s.dt}>Duration</dt>
            <dd className={s.dd}>{formatDuration(data.job.duration_ms)}</dd>
            <dt className={s.dt}>Attempt</dt>
            <dd className={s.dd}>{data.job.attempt}</dd>
            {data.job.error && (
              <>
                <dt className={s.dt}>Error</dt>
                <dd className={`${s.dd} ${s.error}`}>{data.job.error}</dd>
              </>
            )}
          </dl>
          {data.job.status === 'failed' && (
            <div className={s.actions}>
              <Button appearance="primary" icon={<ArrowClockwise20Regular />} disabled={!!busy} onClick={() => void act('retry')}>
                {busy === 'retry' ? 'Retrying...' : RETRY_LABEL}
              </Button>
              <Button
                icon={<ArrowRepeatAll20Regular />}
                disabledFocusable={running === false}
                disabled={!!busy}
                aria-describedby={running === false ? 'rerun-stopped' : undefined}
                onClick={() => void act('rerun')}
              >
                {busy === 'rerun' ? 'Starting...' : RERUN_LABEL}
              </Button>
              {running === false && (
                <Caption1 id="rerun-stopped" className={s.summary}>
                  {RERUN_STOPPED}
                </Caption1>
              )}
            </div>
          )}
          {actionError && (
            <MessageBar layout="multiline" intent="error">
              <MessageBarBody>{actionError}</MessageBarBody>
            </MessageBar>
          )}
          <Subtitle2 as="h4" className={s.title}>
            Steps
          </Subtitle2>
          <ol className={s.steps} aria-label="Steps">
            {data.steps.map((st) => (
              <li key={st.index} className={s.step}>
                <div className={s.rowHead}>
                  <Body1>
                    {st.index === 0 ? 'Trigger: ' : `${st.index}. `}
                    {st.name}
                  </Body1>
                  <StatusBadge status={st.status} kind="step" />
                </div>
                <span className={s.meta}>
                  <Caption1>Started: {formatInZone(st.started_at, zone)}</Caption1>
                  <Caption1>Tries: {st.attempts}</Caption1>
                </span>
                {st.input_summary && <Caption1 className={s.summary}>In: {st.input_summary}</Caption1>}
                <StepOutput step={st} />
                {st.index > 0 && st.status === 'succeeded' && <StepFiles jobId={jobId} output={st.output} />}
                {st.error && <Caption1 className={s.error}>Error: {st.error}</Caption1>}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
