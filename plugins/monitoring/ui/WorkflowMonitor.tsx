import { Suspense, lazy, useEffect, useState } from 'react';
import {
  Body1,
  Button,
  Caption1,
  Card,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Subtitle2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ButtonLink, ChunkBoundary, formatDay, useApi } from '../../../src/app';
import { combinationPath } from '../../../src/core';
import type { MonitoringRecord } from '../records';
import { readRecords, toSeries, totalsOf } from '../series';

/** The window the screen asks for: the spec's period 2 (weeks). */
export const PERIOD_WEEKS = 2;
/** The client id sent with the request (the spec's fixed one; the server uses the caller). */
export const CLIENT_ID = 'flowmatic-web';
export const NO_RUNS = 'No runs yet';

const MonitoringChart = lazy(() => import(/* webpackChunkName: "monitoring-chart" */ './MonitoringChart'));

const useStyles = makeStyles({
  panel: { display: 'grid', gap: '16px', minWidth: 0 },
  totals: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(150px, 1fr))',
    gap: '12px',
  },
  stat: { padding: '12px 16px', display: 'grid', gap: '2px' },
  figure: {
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
  },
  label: { color: tokens.colorNeutralForeground2 },
  empty: {
    padding: '24px',
    display: 'grid',
    gap: '10px',
    justifyItems: 'start',
  },
  chart: { padding: '8px', minHeight: '396px' },
  triggers: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: '4px' },
  working: { color: tokens.colorPaletteGreenForeground1 },
  notWorking: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
});

/** One running recipe's trigger health (GET /api/automation/trigger-health). */
export interface RecipeTriggerHealth {
  recipe_id: number;
  combination_id: number;
  workflow_id: number;
  combination_name: string;
  trigger: string;
  working: boolean;
  reason: string | null;
}

/**
 * The triggers of the workflow's running combinations (issue 19): each reads 'Listening' or 'Not
 * working' with the reason (the e-mail port taken, the Drive connection lost) and a link to its
 * setup screen. Nothing shows while none of them runs.
 */
export function TriggerHealthList({ workflowId }: { workflowId: number }) {
  const api = useApi();
  const s = useStyles();
  const [recipes, setRecipes] = useState<RecipeTriggerHealth[]>([]);
  useEffect(() => {
    let live = true;
    api.get<{ recipes?: RecipeTriggerHealth[] }>('/api/automation/trigger-health').then(
      (r) => live && setRecipes((Array.isArray(r?.recipes) ? r.recipes : []).filter((x) => x.workflow_id === workflowId)),
      (e: unknown) => console.log(e),
    );
    return () => {
      live = false;
    };
  }, [api, workflowId]);
  if (!recipes.length) return null;
  return (
    <Card className={s.stat} data-testid="trigger-health-list">
      <Subtitle2 as="h3">Triggers</Subtitle2>
      <ul className={s.triggers}>
        {recipes.map((r) => (
          <li key={r.recipe_id} data-recipe-id={r.recipe_id}>
            <ButtonLink to={combinationPath({ id: r.combination_id, name: r.combination_name })} appearance="transparent">
              {r.combination_name}
            </ButtonLink>{' '}
            {r.working ? (
              <Caption1 className={s.working}>Listening</Caption1>
            ) : (
              <Caption1 className={s.notWorking}>Not working{r.reason ? `: ${r.reason}` : ''}</Caption1>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

type View = { state: 'loading' } | { state: 'error' } | { state: 'ready'; records: MonitoringRecord[] };

function Stat({ figure, label }: { figure: string; label: string }) {
  const s = useStyles();
  return (
    <Card className={s.stat}>
      <span className={s.figure}>{figure}</span>
      <Caption1 className={s.label}>{label}</Caption1>
    </Card>
  );
}

/**
 * One workflow's runs over the window: totals (runs, success rate, hours saved) above a line
 * chart of FAILED, SUCCEEDED, success_rate and time_cost_unit_min per day; loading, error (with
 * Try again) and 'No runs yet' (with a link to the workflow's combinations) states.
 */
export function WorkflowMonitor({ workflowId, workflowName }: { workflowId: number; workflowName: string }) {
  const s = useStyles();
  const api = useApi();
  const [view, setView] = useState<View>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setView({ state: 'loading' });
    const query = new URLSearchParams({
      client_id: CLIENT_ID,
      datasource: String(workflowId),
      period: String(PERIOD_WEEKS),
    });
    api
      .get<unknown>(`/api/platform/monitoringData?${query}`)
      .then((reply) => {
        if (live) setView({ state: 'ready', records: readRecords(reply) });
      })
      .catch((e: unknown) => {
        console.log(e);
        if (live) setView({ state: 'error' });
      });
    return () => {
      live = false;
    };
  }, [api, workflowId, attempt]);

  if (view.state === 'loading') return <Spinner label={`Loading the runs of ${workflowName}...`} />;
  if (view.state === 'error') {
    return (
      <MessageBar intent="error">
        <MessageBarBody>The runs of {workflowName} could not be loaded.</MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => setAttempt((n) => n + 1)}>Try again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  const totals = totalsOf(view.records);
  return (
    <div className={s.panel} role="region" aria-label={`Runs of ${workflowName}`}>
      <Subtitle2 as="h2">{workflowName}</Subtitle2>
      {view.records.length > 0 && (
        <Caption1 className={s.label}>
          {formatDay(view.records[0].Date)} to {formatDay(view.records[view.records.length - 1].Date)}
        </Caption1>
      )}
      <div className={s.totals}>
        <Stat figure={String(totals.runs)} label={`runs in ${PERIOD_WEEKS * 7} days`} />
        <Stat figure={totals.successRate === null ? '–' : `${totals.successRate}%`} label="success rate" />
        <Stat figure={String(totals.hoursSaved)} label="hours saved" />
      </div>
      <TriggerHealthList workflowId={workflowId} />
      {totals.runs === 0 ? (
        <Card className={s.empty}>
          <Subtitle2 as="h3">{NO_RUNS}</Subtitle2>
          <Body1>Runs of {workflowName} appear here once one of its combinations has run.</Body1>
          <ButtonLink to={`/solutions/combinations/${workflowId}`} appearance="primary">
            See the combinations of {workflowName}
          </ButtonLink>
        </Card>
      ) : (
        <Card className={s.chart}>
          <ChunkBoundary
            fallback={
              <MessageBar intent="error">
                <MessageBarBody>The chart could not be drawn. Reload the page to try again.</MessageBarBody>
              </MessageBar>
            }
          >
            <Suspense fallback={<Spinner label="Loading the chart..." />}>
              <MonitoringChart series={toSeries(view.records)} title={`${workflowName}: runs per day`} />
            </Suspense>
          </ChunkBoundary>
        </Card>
      )}
    </div>
  );
}
