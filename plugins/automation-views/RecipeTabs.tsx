import { useCallback, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { makeStyles } from '@fluentui/react-components';
import { RovingTab, RovingTabList, useUserZone } from '../../src/app';
import type { Connector } from '../../src/core';
import { ConnectionsPane } from './ConnectionsPane';
import { JobsPanel } from './JobsPanel';
import type { SetupFlow } from './use-setup-flow';

export type RecipeTab = 'recipe' | 'jobs' | 'connections';

const useStyles = makeStyles({
  root: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '12px', minWidth: 0 },
  tabs: { overflowX: 'auto', maxWidth: '100%' },
  pane: { minWidth: 0 },
});

/** The user's time zone offset (the shell's, from browser storage key 'time_zone'). */
export { useUserZone };

/**
 * The `?job={jobId}` query: the job it names (opening the jobs tab on it) and a setter that
 * keeps the address in step, so a job's link (e.g. from the failure e-mail) can be shared.
 */
export function useJobParam(): [string | undefined, (jobId: string | undefined) => void] {
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job') ?? undefined;
  const set = useCallback(
    (id: string | undefined) =>
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (id) next.set('job', id);
          else next.delete('job');
          return next;
        },
        { replace: false },
      ),
    [setParams],
  );
  return [jobId, set];
}

/**
 * The recipe tab group (spec section 2): 'recipe' (the workflow panel and the selected item),
 * 'jobs' (the job history, opening to a job's steps) and 'connections'.
 */
export function RecipeTabs({
  flow,
  connectors,
  recipeContent,
  idPrefix,
}: {
  flow: SetupFlow;
  connectors: readonly Connector[];
  recipeContent: ReactNode;
  idPrefix: string;
}) {
  const s = useStyles();
  const zone = useUserZone();
  const [jobId, setJobId] = useJobParam();
  const [tab, setTab] = useState<RecipeTab>(jobId ? 'jobs' : 'recipe');
  const current: RecipeTab = jobId ? 'jobs' : tab;
  const recipeId = flow.record?.recipe_id;

  const select = (next: RecipeTab) => {
    if (next !== 'jobs' && jobId) setJobId(undefined);
    setTab(next);
  };

  return (
    <div className={s.root}>
      <RovingTabList className={s.tabs} selectedValue={current} onTabSelect={(_, d) => select(d.value as RecipeTab)} aria-label="Recipe">
        <RovingTab value="recipe" id={`${idPrefix}-recipe-tab`}>
          recipe
        </RovingTab>
        <RovingTab value="jobs" id={`${idPrefix}-jobs-tab`}>
          jobs
        </RovingTab>
        <RovingTab value="connections" id={`${idPrefix}-connections-tab`}>
          connections
        </RovingTab>
      </RovingTabList>
      <div className={s.pane} role="tabpanel" aria-labelledby={`${idPrefix}-${current}-tab`}>
        {current === 'recipe' && recipeContent}
        {current === 'jobs' && recipeId !== undefined && (
          <JobsPanel recipeId={recipeId} version={flow.jobsVersion} zone={zone} openJobId={jobId} onOpenJob={setJobId} running={flow.running} />
        )}
        {current === 'connections' && <ConnectionsPane connectors={connectors} connections={flow.connections} idPrefix={`${idPrefix}-conn`} />}
      </div>
    </div>
  );
}
