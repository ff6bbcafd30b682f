import { Spinner, Title2, makeStyles } from '@fluentui/react-components';
import type { Solution } from '../../core/domain';
import { useApi, useBreadcrumb } from '../hooks';
import { EmptyState, LoadError } from '../components/catalogue/Notice';
import { useGridStyles } from '../components/catalogue/grid';
import { useLoad } from '../components/catalogue/use-load';
import { SolutionCard } from './catalogue/SolutionCard';

const useStyles = makeStyles({ title: { margin: '0 0 20px' } });

export const NO_SOLUTIONS = 'There are no solutions to show yet.';

/** /solutions: solution cards, two per row (spec section 2). */
export default function SolutionsPage() {
  useBreadcrumb('Solutions', '/solutions');
  const s = useStyles();
  const grid = useGridStyles();
  const api = useApi();
  const solutions = useLoad(() => api.get<Solution[]>('/api/platform/solutions').then((l) => (Array.isArray(l) ? l : [])), [api]);
  return (
    <section aria-labelledby="solutions-title">
      <Title2 as="h1" id="solutions-title" className={s.title}>
        Solutions
      </Title2>
      {solutions.status === 'loading' && <Spinner label="Loading solutions..." />}
      {solutions.status === 'error' && <LoadError />}
      {solutions.status === 'ready' &&
        (solutions.data.length === 0 ? (
          <EmptyState>{NO_SOLUTIONS}</EmptyState>
        ) : (
          <div className={grid.two}>
            {solutions.data.map((sol) => (
              <SolutionCard key={sol.id} solution={sol} />
            ))}
          </div>
        ))}
    </section>
  );
}
