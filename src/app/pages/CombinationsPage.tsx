import { useNavigate, useParams } from 'react-router-dom';
import { Button, Spinner, Subtitle1, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowLeft24Regular } from '@fluentui/react-icons/svg/arrow-left';
import type { Workflow } from '../../core/domain';
import { sortCombinations } from '../../core/catalogue';
import { useApi, useBreadcrumb } from '../hooks';
import { CombinationCard } from '../components/catalogue/CombinationCard';
import { EmptyState } from '../components/catalogue/Notice';
import { LoadFailure, NO_CONTENT } from '../components/catalogue/LoadFailure';
import { useGridStyles } from '../components/catalogue/grid';
import { useLoad } from '../components/catalogue/use-load';
import { cardPropsOf, isSettled, useUserCatalogueData } from '../components/catalogue/use-catalogue-data';

export { NO_CONTENT };

const useStyles = makeStyles({
  head: { display: 'grid', gap: '4px', marginBottom: '20px' },
  sub: { color: tokens.colorNeutralForeground2, margin: 0 },
  flush: { margin: 0 },
});

/** /solutions/combinations/{id} ('Combinations', spec section 2): a workflow's combinations. */
export default function CombinationsPage() {
  const { id = '' } = useParams();
  const s = useStyles();
  const grid = useGridStyles();
  const api = useApi();
  const navigate = useNavigate();
  const workflow = useLoad(() => api.get<Workflow>(`/api/platform/workflows/${id}/`), [api, id]);
  const user = useUserCatalogueData();
  useBreadcrumb(workflow.data?.name, `/solutions/combinations/${id}`);

  const combos = workflow.data ? sortCombinations(workflow.data.combinations ?? []) : undefined;
  const propsOf = cardPropsOf(user);

  return (
    <section aria-labelledby="combinations-title">
      <div className={s.head}>
        <Title2 as="h1" id="combinations-title" className={s.flush}>
          Combinations
        </Title2>
        {workflow.data?.name && (
          <Subtitle1 as="h2" className={s.sub}>
            {workflow.data.name}
          </Subtitle1>
        )}
      </div>
      {workflow.status === 'error' && <LoadFailure error={workflow.error} onRetry={workflow.reload} />}
      {(workflow.status === 'loading' || (combos && combos.length > 0 && !isSettled(user))) && <Spinner label="Loading combinations..." />}
      {combos && combos.length === 0 && (
        <EmptyState
          action={
            <Button appearance="primary" icon={<ArrowLeft24Regular />} onClick={() => navigate(-1)}>
              Go back
            </Button>
          }
        >
          {NO_CONTENT}
        </EmptyState>
      )}
      {combos && combos.length > 0 && isSettled(user) && (
        <div className={grid.three}>
          {combos.map((c) => (
            <CombinationCard key={c.id} combination={c} {...propsOf(c)} />
          ))}
        </div>
      )}
    </section>
  );
}
