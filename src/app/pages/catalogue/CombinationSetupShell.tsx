import { useLocation, useParams } from 'react-router-dom';
import { Body1, Spinner, Title2, makeStyles, tokens } from '@fluentui/react-components';
import type { Combination } from '../../../core/domain';
import { BASIC_VIEW_KEY } from '../../../core/plugin';
import { cleanCombinationName, recipeFor } from '../../../core/catalogue';
import { useApi, useBreadcrumb, useRegistry } from '../../hooks';
import { LazyView } from '../../components/LazyView';
import { CostEstimator } from '../../components/catalogue/CostEstimator';
import { EmptyState } from '../../components/catalogue/Notice';
import { LoadFailure } from '../../components/catalogue/LoadFailure';
import { useLoad } from '../../components/catalogue/use-load';
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
  const c = combination.data;
  const name = c ? cleanCombinationName(c.name) : undefined;
  useBreadcrumb(name, pathname);

  if (combination.status === 'loading') return <Spinner label="Loading combination..." />;
  if (combination.status === 'error' || !c) return <LoadFailure error={combination.error} onRetry={combination.reload} />;

  const loader =
    variant === 'basic'
      ? (registry.combinationViews.get(c.id) ?? registry.combinationViews.get(BASIC_VIEW_KEY) ?? registry.combinationViewFor(c))
      : registry.combinationViewFor(c);
  const props: CombinationViewProps = { combinationId: c.id };
  const record = recipeFor(c, user.records.data ?? []);

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
          <RecipeDetails combination={c} record={record} loading={user.records.status === 'loading'} />
          <CostEstimator combinationId={c.id} />
        </aside>
      </div>
    </section>
  );
}
