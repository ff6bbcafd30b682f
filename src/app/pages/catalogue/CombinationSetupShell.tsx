import { useEffect, useRef, useState } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { Body1, Spinner, Title2, makeStyles, tokens } from '@fluentui/react-components';
import type { Combination, UserRecipeRecord } from '../../../core/domain';
import { BASIC_VIEW_KEY } from '../../../core/plugin';
import { cleanCombinationName, recipeFor } from '../../../core/catalogue';
import { useApi, useBreadcrumb, useEventBus, useRegistry } from '../../hooks';
import { LazyView } from '../../components/LazyView';
import { CostEstimator } from '../../components/catalogue/CostEstimator';
import { EmptyState } from '../../components/catalogue/Notice';
import { LoadFailure } from '../../components/catalogue/LoadFailure';
import { useLoad, type Load } from '../../components/catalogue/use-load';
import { useUserCatalogueData } from '../../components/catalogue/use-catalogue-data';
import type { CombinationViewProps } from '../../plugin';
import { RecipeDetails } from './RecipeDetails';

export const NO_SETUP_VIEW = 'There is no setup view for this combination yet.';

const useStyles = makeStyles({
  head: { display: 'grid', gap: '4px', marginBottom: '20px' },
  sub: { color: tokens.colorNeutralForeground2 },
  flush: { margin: 0 },
  columns: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) 320px',
    gap: '20px',
    alignItems: 'start',
    '@media (max-width: 1000px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  side: { display: 'grid', gap: '16px' },
});

/**
 * The setup-screen shell shared by /solutions/combinations/workflow/{id} and
 * /basic-workflow/{id}: header with the combination name ('(basic)' removed), the plugin's
 * setup view as the body, and a sidebar with recipe details and the cost estimator.
 * On the basic route the basic view is used unless a plugin registered one for the id.
 */
export function CombinationSetupShell({ variant }: { variant: 'workflow' | 'basic' }) {
  const { id = '' } = useParams();
  const { pathname } = useLocation();
  const s = useStyles();
  const api = useApi();
  const registry = useRegistry();
  const combination = useLoad(() => api.get<Combination>(`/api/platform/combination/${id}/`), [api, id]);
  const user = useUserCatalogueData({ votes: false });
  const fresh = useRecipeRefresh(id, combination.data, user.records);
  const c = fresh.combination;
  const name = c ? cleanCombinationName(c.name) : undefined;
  useBreadcrumb(name, pathname);

  if (combination.status === 'loading') return <Spinner label="Loading combination..." />;
  if (combination.status === 'error' || !c) return <LoadFailure error={combination.error} onRetry={combination.reload} />;

  const loader =
    variant === 'basic'
      ? (registry.combinationViews.get(c.id) ?? registry.combinationViews.get(BASIC_VIEW_KEY) ?? registry.combinationViewFor(c))
      : registry.combinationViewFor(c);
  const props: CombinationViewProps = { combinationId: c.id };
  const record = recipeFor(c, fresh.records ?? []);

  return (
    <section aria-labelledby="setup-title">
      <div className={s.head}>
        <Title2 as="h1" id="setup-title" className={s.flush}>
          {name}
        </Title2>
        {c.sub_title && <Body1 className={s.sub}>{c.sub_title}</Body1>}
      </div>
      <div className={s.columns}>
        <div>{loader ? <LazyView loader={loader} props={{ ...props }} /> : <EmptyState>{NO_SETUP_VIEW}</EmptyState>}</div>
        <aside className={s.side} aria-label="Recipe and costs">
          <RecipeDetails combination={c} record={record} loading={user.records.status === 'loading' && !fresh.records} />
          <CostEstimator combinationId={c.id} />
        </aside>
      </div>
    </section>
  );
}

/**
 * Keeps the sidebar's recipe current: when the combination's recipe is started or stopped (the
 * setup view publishes 'recipe/started' / 'recipe/stopped' on the client event bus), the running
 * badge follows at once and the combination and the recipe records are read again. What was
 * shown stays on screen while they load, so neither the page nor the sidebar blanks.
 */
function useRecipeRefresh(id: string, loaded: Combination | undefined, records: Load<UserRecipeRecord[]>) {
  const api = useApi();
  const bus = useEventBus();
  const [override, setOverride] = useState<{ id: string; combination: Combination }>();
  const shownRecords = useRef<UserRecipeRecord[] | undefined>(undefined);
  if (records.data) shownRecords.current = records.data;
  const combination = override?.id === id ? override.combination : loaded;
  const current = useRef(combination);
  current.current = combination;
  const { reload } = records;

  useEffect(() => {
    const combinationId = Number(id);
    let alive = true;
    let seq = 0;
    const refresh = (running: boolean) => (event: { combinationId: number }) => {
      if (event.combinationId !== combinationId) return;
      const mine = ++seq;
      const shown = current.current;
      if (shown) setOverride({ id, combination: { ...shown, running } });
      reload();
      api.get<Combination>(`/api/platform/combination/${id}/`).then(
        (next) => alive && mine === seq && setOverride({ id, combination: next }),
        (e) => console.log(e),
      );
    };
    const subscriptions = [bus.on('recipe/started').subscribe(refresh(true)), bus.on('recipe/stopped').subscribe(refresh(false))];
    return () => {
      alive = false;
      subscriptions.forEach((x) => x.unsubscribe());
    };
  }, [api, bus, id, reload]);

  return { combination, records: records.data ?? shownRecords.current };
}
