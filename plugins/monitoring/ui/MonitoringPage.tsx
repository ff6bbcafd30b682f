import { useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { Button, MessageBar, MessageBarActions, MessageBarBody, Spinner, Subtitle1, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { useApi, useBreadcrumb, RovingTab, RovingTabList } from '../../../src/app';
import { WorkflowMonitor } from './WorkflowMonitor';

/** The heading of the screen (spec section 1: 'ML Monitoring Dashboard'). */
export const DASHBOARD_TITLE = 'ML Monitoring Dashboard';
export const NO_WORKFLOWS = 'This solution has no workflows to monitor.';

interface SolutionWorkflow {
  id: number;
  name: string;
}

interface SolutionReply {
  name?: string;
  workflows?: SolutionWorkflow[];
}

const useStyles = makeStyles({
  head: { display: 'grid', gap: '4px', marginBottom: '20px' },
  flush: { margin: 0 },
  sub: { margin: 0, color: tokens.colorNeutralForeground2 },
  body: {
    display: 'grid',
    gridTemplateColumns: 'minmax(180px, 240px) minmax(0, 1fr)',
    gap: '24px',
    alignItems: 'start',
    '@media (max-width: 720px)': { gridTemplateColumns: '1fr' },
  },
  tabs: { alignItems: 'stretch' },
  tab: { justifyContent: 'flex-start', textAlign: 'start' },
  sidebar: {
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    paddingRight: '8px',
    '@media (max-width: 720px)': { borderRight: 'none', paddingRight: 0 },
  },
});

type View = { state: 'loading' } | { state: 'error' } | { state: 'ready'; name: string; workflows: SolutionWorkflow[] };

/**
 * /monitoring/{id} (id: the solution): breadcrumb Home > Monitoring, the heading, a sidebar tab
 * list of the solution's workflows and, for the selected one, its runs of the last two weeks
 * (spec monitoring steps: load the workflows, load the monitoring data, build the chart).
 */
export default function MonitoringPage() {
  const { id = '' } = useParams();
  // ?workflow= opens that workflow's tab (the Monitoring link of a running combination)
  const [search] = useSearchParams();
  const wanted = Number(search.get('workflow'));
  const s = useStyles();
  const api = useApi();
  const [view, setView] = useState<View>({ state: 'loading' });
  const [selected, setSelected] = useState<number | undefined>();
  const [attempt, setAttempt] = useState(0);
  useBreadcrumb('Monitoring', `/monitoring/${id}`);

  useEffect(() => {
    let live = true;
    setView({ state: 'loading' });
    api
      .get<SolutionReply>(`/api/platform/solution/${encodeURIComponent(id)}/`)
      .then((sol) => {
        if (!live) return;
        const workflows = (sol?.workflows ?? []).filter((w) => typeof w?.id === 'number');
        setView({ state: 'ready', name: sol?.name ?? '', workflows });
        setSelected((current) => (workflows.some((w) => w.id === current) ? current : (workflows.find((w) => w.id === wanted) ?? workflows[0])?.id));
      })
      .catch((e: unknown) => {
        console.log(e);
        if (live) setView({ state: 'error' });
      });
    return () => {
      live = false;
    };
  }, [api, id, attempt, wanted]);

  const workflow = view.state === 'ready' ? view.workflows.find((w) => w.id === selected) : undefined;
  return (
    <section aria-labelledby="monitoring-title">
      <div className={s.head}>
        <Title2 as="h1" id="monitoring-title" className={s.flush}>
          {DASHBOARD_TITLE}
        </Title2>
        {view.state === 'ready' && view.name && (
          <Subtitle1 as="p" className={s.sub}>
            {view.name}: your runs of the last 14 days
          </Subtitle1>
        )}
      </div>
      {view.state === 'loading' && <Spinner label="Loading workflows..." />}
      {view.state === 'error' && (
        <MessageBar intent="error">
          <MessageBarBody>The solution's workflows could not be loaded.</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => setAttempt((n) => n + 1)}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {view.state === 'ready' && view.workflows.length === 0 && (
        <MessageBar intent="info">
          <MessageBarBody>{NO_WORKFLOWS}</MessageBarBody>
        </MessageBar>
      )}
      {view.state === 'ready' && view.workflows.length > 0 && (
        <div className={s.body}>
          <nav className={s.sidebar} aria-label="Workflows">
            <RovingTabList vertical className={s.tabs} selectedValue={selected} onTabSelect={(_, data) => setSelected(data.value as number)}>
              {view.workflows.map((w) => (
                <RovingTab key={w.id} value={w.id} className={s.tab}>
                  {w.name}
                </RovingTab>
              ))}
            </RovingTabList>
          </nav>
          {workflow && <WorkflowMonitor key={workflow.id} workflowId={workflow.id} workflowName={workflow.name} />}
        </div>
      )}
    </section>
  );
}
