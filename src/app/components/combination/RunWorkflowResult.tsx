import { useEffect, useState } from 'react';
import { Button, MessageBar, MessageBarBody, MessageBarTitle, Spinner } from '@fluentui/react-components';
import type { JobStepView, JobView } from '../../../core';
import { useApi, useSession } from '../../hooks';
import { NOT_SET_UP, STOPPED, type RunOutcome } from './run-workflow';
import { userMessage } from '../../messages';
import { StepFiles, stepFiles } from './StepFiles';

/** How often the page looks at the run's job while it is queued or running. */
export const JOB_POLL_MS = 2000;

type Job = { job: JobView; steps: JobStepView[] };

/** 'step 2 of 3 (Extract the invoice fields)' for the step that runs now; the trigger (step 0) is not counted. */
function progressOf(steps: JobStepView[]): string {
  const actions = steps.filter((s) => s.index > 0);
  const current = actions.find((s) => s.status === 'running') ?? actions.find((s) => s.status === 'pending');
  if (!current) return '';
  return ` – step ${actions.indexOf(current) + 1} of ${actions.length} (${current.name})`;
}

/**
 * What a Run Workflow press really did (RunOutcome), on the page: the run's job followed to its
 * end (queued, running at step n, then succeeded with the last step's output, or failed with the
 * failed step's error); a stopped recipe with a Start control (which starts it, then runs again
 * through `retry`; a refused start shows why, e.g. 'Connect Google Sheets to start this
 * workflow.'); not set up; or the engine's refusal.
 */
export function RunWorkflowResult({ outcome, retry }: { outcome: RunOutcome | undefined; retry(): void }) {
  const api = useApi();
  const session = useSession();
  const [job, setJob] = useState<Job>();
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string>();
  const jobId = outcome?.kind === 'started' ? outcome.jobId : undefined;

  useEffect(() => {
    setJob(undefined);
    setStartError(undefined);
    if (!jobId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = () =>
      api.get<Job>(`/api/automation/jobs/${encodeURIComponent(jobId)}`).then(
        (j) => {
          if (!live) return;
          setJob(j);
          if (j.job.status === 'queued' || j.job.status === 'running') timer = setTimeout(look, JOB_POLL_MS);
        },
        (e) => {
          console.log(e);
          if (live) timer = setTimeout(look, JOB_POLL_MS);
        },
      );
    void look();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [api, jobId]);

  if (!outcome) return null;
  if (outcome.kind === 'not-set-up') return <Bar intent="warning" text={NOT_SET_UP} />;
  if (outcome.kind === 'failed') return <Bar intent="error" title="The workflow did not run" text={outcome.error} />;
  if (outcome.kind === 'stopped') {
    const start = async () => {
      if (session.workatoId === null) return;
      setStarting(true);
      setStartError(undefined);
      try {
        await api.put('/api/platform/proxy', { url: `api/managed_users/${session.workatoId}/recipes/${outcome.recipeId}/start` });
        retry();
      } catch (e) {
        setStartError(userMessage(e, 'The workflow could not be started.'));
      } finally {
        setStarting(false);
      }
    };
    return (
      <MessageBar intent="warning" layout="multiline" aria-live="polite" data-testid="run-result">
        <MessageBarBody>
          <MessageBarTitle>Workflow Stopped</MessageBarTitle>
          {STOPPED}
          {startError && <div role="alert">{startError}</div>}
          <div>
            <Button appearance="primary" size="small" onClick={() => void start()} disabled={starting} icon={starting ? <Spinner size="tiny" /> : undefined}>
              {starting ? 'Starting…' : 'Start Workflow and run'}
            </Button>
          </div>
        </MessageBarBody>
      </MessageBar>
    );
  }
  if (!job) return <Bar intent="info" text="The run was accepted. Looking at its job…" busy />;
  const { status, error } = job.job;
  if (status === 'succeeded') {
    const last = [...job.steps].reverse().find((s) => s.index > 0 && s.status === 'succeeded');
    // a step's whole result kept as a file (a reconciliation's workbook) downloads from here too
    const kept = job.steps.filter((s) => s.index > 0 && s.status === 'succeeded' && stepFiles(s.output).length > 0);
    return (
      <>
        <Bar intent="success" title="The workflow ran" text={last?.output_summary ? `${last.name}: ${last.output_summary}` : 'Every step succeeded.'} />
        {kept.map((s) => (
          <StepFiles key={s.index} jobId={job.job.id} output={s.output} />
        ))}
      </>
    );
  }
  if (status === 'failed') {
    const failed = job.steps.find((s) => s.status === 'failed');
    return (
      <Bar
        intent="error"
        title="The workflow ran and failed"
        text={failed ? `${failed.name}: ${failed.error ?? error ?? 'failed'}` : (error ?? 'The run failed.')}
      />
    );
  }
  return <Bar intent="info" text={`${status === 'queued' ? 'Waiting to run' : 'Running'}${progressOf(job.steps)}…`} busy />;
}

function Bar({ intent, title, text, busy }: { intent: 'success' | 'warning' | 'error' | 'info'; title?: string; text: string; busy?: boolean }) {
  return (
    <MessageBar intent={intent} layout="multiline" aria-live="polite" data-testid="run-result">
      <MessageBarBody>
        {title && <MessageBarTitle>{title}</MessageBarTitle>}
        {busy && <Spinner size="tiny" as="span" />} {text}
      </MessageBarBody>
    </MessageBar>
  );
}
