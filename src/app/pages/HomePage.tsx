import { useEffect, useState } from 'react';
import { Accordion, AccordionHeader, AccordionItem, AccordionPanel, Spinner, makeStyles, mergeClasses } from '@fluentui/react-components';
import { PlugConnected24Regular } from '@fluentui/react-icons/svg/plug-connected';
import { Apps24Regular } from '@fluentui/react-icons/svg/apps';
import { Vote24Regular } from '@fluentui/react-icons/svg/vote';
import type { Combination } from '../../core/domain';
import { activeCombinations, activeConnectionsCount, availableCount, myVotes, recommendedCombinations, sortCombinations } from '../../core/catalogue';
import { useApi, useBreadcrumb, useEventBus, useRegistry } from '../hooks';
import { ButtonLink } from '../components/catalogue/ButtonLink';
import { CombinationCard } from '../components/catalogue/CombinationCard';
import { NewCombinationCard } from '../components/catalogue/NewCombinationCard';
import { EmptyState, LoadError } from '../components/catalogue/Notice';
import { useGridStyles } from '../components/catalogue/grid';
import { useLoad } from '../components/catalogue/use-load';
import { cardPropsOf, isSettled, useUserCatalogueData } from '../components/catalogue/use-catalogue-data';
import { IntroPanel } from './catalogue/IntroPanel';
import { Counters } from './catalogue/Counters';

const useStyles = makeStyles({
  lists: { display: 'grid', gap: '12px' },
  panel: { padding: '8px 0 16px' },
  error: { marginBottom: '16px' },
  empty: { marginBottom: '16px' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: '8px', justifyContent: 'center' },
  // the recommended list keeps room for a row of cards while the data loads
  reserve: { minHeight: '220px' },
  // as tall as the empty-state line that usually replaces it
  statusSlot: { minHeight: '88px', display: 'flex', alignItems: 'center', justifyContent: 'center', boxSizing: 'border-box' },
  // as tall as the empty state with its 'Try it with a sample invoice' button (32 px padding ×2, line, 12 px gap, button)
  statusSlotWithAction: { minHeight: '130px' },
  srOnly: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    margin: '-1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
    border: 0,
    padding: 0,
  },
});

export const NO_ACTIVE = 'No active combinations yet. Set one up and run it once, and it will show here.';
export const NO_RECOMMENDED = 'No recommendations right now: you have already tried every combination we would suggest.';
/** The first-run action (issue 25): the invoice extraction page, which then reads the invoice shipped with the app. */
export const SAMPLE_RUN_WORKFLOW = 10004;
export const SAMPLE_RUN_PATH = `/workflow/${SAMPLE_RUN_WORKFLOW}?sample=invoice`;
/**
 * The guided first run with sample data (issue 25): combination 1's setup screen with its sandbox
 * steps highlighted, offered only while the server runs its sandbox providers (never in production).
 */
export const SAMPLE_AUTOMATION_PATH = '/solutions/combinations/workflow/1?guided=sample-data';
/** GET /api/automation/trigger-health: one running recipe's trigger, and why it cannot listen. */
interface RecipeTriggerHealth {
  combination_id: number;
  working: boolean;
  reason: string | null;
}

/** The reason each active combination's trigger cannot listen ('' when none was given), by combination id. */
export function notWorkingByCombination(recipes: unknown): Map<number, string> {
  const out = new Map<number, string>();
  for (const r of Array.isArray(recipes) ? (recipes as RecipeTriggerHealth[]) : []) {
    if (r && r.working === false && typeof r.combination_id === 'number' && !out.has(r.combination_id)) out.set(r.combination_id, r.reason ?? '');
  }
  return out;
}

export const HOME_LOAD_ERROR = 'We could not load your combinations right now. Please refresh the page or try again in a moment.';

/** The home dashboard (spec section 2, Home dashboard; section 4, Lists). */
export default function HomePage() {
  useBreadcrumb('Home', '/home');
  const s = useStyles();
  const grid = useGridStyles();
  const api = useApi();
  const bus = useEventBus();
  const registry = useRegistry();
  const combos = useLoad(() => api.get<Combination[]>('/api/platform/combinations').then((l) => (Array.isArray(l) ? l : [])), [api]);
  const user = useUserCatalogueData();
  const [votesCastHere, setVotesCastHere] = useState(0);
  // the sandbox shortcuts exist outside production while the providers run on their sandbox (404 otherwise)
  const sandbox = useLoad(
    () =>
      api.get('/api/plugins/connectors/sandbox').then(
        () => true,
        () => false,
      ),
    [api],
  );

  useEffect(() => {
    const sub = bus.on('vote/cast').subscribe(() => setVotesCastHere((n) => n + 1));
    return () => sub.unsubscribe();
  }, [bus]);

  const list = combos.data;
  const settled = isSettled(user);
  const propsOf = cardPropsOf(user);
  const ctx = { connections: user.connections.data ?? [], records: user.records.data ?? [], source: user.source };
  const active = list && settled ? sortCombinations(activeCombinations(list, ctx)) : undefined;
  // the health of the running recipes' triggers (issue 19), asked once the active list has cards
  const activeIds = (active ?? []).map((c) => c.id).join(',');
  const health = useLoad(
    () =>
      activeIds
        ? api.get<{ recipes?: unknown }>('/api/automation/trigger-health').then((r) => notWorkingByCombination(r?.recipes))
        : Promise.resolve(new Map<number, string>()),
    [api, activeIds],
  );
  const notWorking = health.data ?? new Map<number, string>();
  const recommended = list && settled ? sortCombinations(recommendedCombinations(list, ctx)) : undefined;

  const activeConnections =
    combos.status === 'error' || user.connections.status === 'error'
      ? null
      : list && user.connections.data
        ? activeConnectionsCount(list, user.connections.data, user.source)
        : undefined;
  const available = combos.status === 'error' ? null : list ? availableCount(list) : undefined;
  const votes = user.votes.status === 'error' ? null : user.votes.data ? myVotes(user.votes.data, user.userId).length + votesCastHere : undefined;

  const failed = combos.status === 'error' || user.connections.status === 'error' || user.records.status === 'error';

  return (
    <>
      {/* the page's one h1; the greeting and the lists below are the visible headings */}
      <h1 className={s.srOnly}>Home</h1>
      <IntroPanel />
      <Counters
        items={[
          { label: 'Active Connections', icon: PlugConnected24Regular, value: activeConnections },
          { label: 'Combinations Available', icon: Apps24Regular, value: available },
          { label: 'Coming Soon Votes', icon: Vote24Regular, value: votes },
        ]}
      />
      {failed && (
        <div className={s.error}>
          <LoadError>{HOME_LOAD_ERROR}</LoadError>
        </div>
      )}
      <Accordion multiple collapsible defaultOpenItems={['active', 'recommended']} className={s.lists}>
        <AccordionItem value="active">
          <AccordionHeader as="h2" size="large">
            Active Combinations
          </AccordionHeader>
          <AccordionPanel className={s.panel}>
            {/* the first paint already has the list's final shape (a status line above the grid
                with its New Combination card), so nothing below jumps when the data arrives */}
            {active === undefined && combos.status !== 'error' ? (
              <div className={s.empty}>
                <div className={mergeClasses(s.statusSlot, registry.workflowViews.get(SAMPLE_RUN_WORKFLOW) && s.statusSlotWithAction)}>
                  <Spinner size="small" label="Loading your combinations..." />
                </div>
              </div>
            ) : (
              active &&
              active.length === 0 && (
                <div className={s.empty}>
                  <EmptyState
                    action={
                      registry.workflowViews.get(SAMPLE_RUN_WORKFLOW) || sandbox.data ? (
                        <span className={s.actions}>
                          {registry.workflowViews.get(SAMPLE_RUN_WORKFLOW) && (
                            <ButtonLink to={SAMPLE_RUN_PATH} appearance="secondary">
                              Try it with a sample invoice
                            </ButtonLink>
                          )}
                          {sandbox.data && (
                            <ButtonLink to={SAMPLE_AUTOMATION_PATH} appearance="secondary">
                              Try an automation with sample data
                            </ButtonLink>
                          )}
                        </span>
                      ) : undefined
                    }
                  >
                    {NO_ACTIVE}
                  </EmptyState>
                </div>
              )
            )}
            <div className={grid.three}>
              {(active ?? []).map((c) => (
                <CombinationCard key={c.id} combination={c} {...propsOf(c)} notWorking={notWorking.get(c.id)} />
              ))}
              <NewCombinationCard combinations={list} />
            </div>
          </AccordionPanel>
        </AccordionItem>
        <AccordionItem value="recommended">
          <AccordionHeader as="h2" size="large">
            Recommended Combinations
          </AccordionHeader>
          <AccordionPanel className={`${s.panel} ${recommended === undefined && combos.status !== 'error' ? s.reserve : ''}`}>
            {recommended === undefined ? (
              combos.status === 'error' ? null : (
                <Spinner size="small" label="Loading recommendations..." />
              )
            ) : recommended.length === 0 ? (
              <EmptyState>{NO_RECOMMENDED}</EmptyState>
            ) : (
              <div className={grid.three}>
                {recommended.map((c) => (
                  <CombinationCard key={c.id} combination={c} {...propsOf(c)} />
                ))}
              </div>
            )}
          </AccordionPanel>
        </AccordionItem>
      </Accordion>
    </>
  );
}
