import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { Caption1, SearchBox, Spinner, Subtitle1, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { Subject, catchError, from, map, of, switchMap } from 'rxjs';
import type { Solution, Workflow } from '../../core/domain';
import { searchRequests, sortWorkflows } from '../../core/catalogue';
import { useApi, useBreadcrumb } from '../hooks';
import { EmptyState, LoadError } from '../components/catalogue/Notice';
import { useGridStyles } from '../components/catalogue/grid';
import { WorkflowCard } from './catalogue/WorkflowCard';

export const NOTHING_MATCHED = 'Sorry nothing matched your search';
export const NO_WORKFLOWS = 'This solution has no workflows yet.';

const useStyles = makeStyles({
  head: { display: 'flex', justifyContent: 'space-between', alignItems: 'flex-end', gap: '16px', flexWrap: 'wrap', marginBottom: '20px' },
  titles: { display: 'grid', gap: '4px' },
  flush: { margin: 0 },
  sub: { color: tokens.colorNeutralForeground2, margin: 0 },
  search: { width: '320px', maxWidth: '100%' },
  busy: { minHeight: '20px', marginBottom: '8px', color: tokens.colorNeutralForeground3 },
});

type View = { state: 'loading' } | { state: 'error' } | { state: 'ready'; workflows: Workflow[]; searched: boolean };

/**
 * /solution/{id} ('Workflows', spec section 2): the solution's workflows with a search box.
 * The search is sent after a 700 ms pause with more than 2 characters; clearing reloads the list
 * (core/catalogue searchRequests). A newer request always wins over an older reply.
 */
export default function SolutionWorkflowsPage() {
  const { id = '' } = useParams();
  const s = useStyles();
  const grid = useGridStyles();
  const api = useApi();
  const values$ = useMemo(() => new Subject<string>(), []);
  const [term, setTerm] = useState('');
  const [name, setName] = useState<string | undefined>();
  const [view, setView] = useState<View>({ state: 'loading' });
  const [busy, setBusy] = useState(false);
  useBreadcrumb(name, `/solution/${id}`);

  useEffect(() => {
    const loadAll = () =>
      api.get<Solution>(`/api/platform/solution/${id}/`).then((sol) => {
        setName(sol?.name);
        return { workflows: sol?.workflows ?? [], searched: false };
      });
    const search = (query: string) =>
      api
        .post<Workflow[]>('/api/platform/searchWorkflowTemplate', { SolutionId: Number(id), Query: query })
        .then((list) => ({ workflows: Array.isArray(list) ? list : [], searched: true }));
    const sub = searchRequests(values$)
      .pipe(
        switchMap((intent) => {
          setBusy(true);
          return from(intent.kind === 'all' ? loadAll() : search(intent.term)).pipe(
            map((r): View => ({ state: 'ready', ...r })),
            catchError((e) => {
              console.log(e);
              return of<View>({ state: 'error' });
            }),
          );
        }),
      )
      .subscribe((v) => {
        setBusy(false);
        setView(v);
      });
    values$.next(''); // the full list
    return () => sub.unsubscribe();
  }, [api, id, values$]);

  const onChange = (value: string) => {
    setTerm(value);
    values$.next(value);
  };

  return (
    <section aria-labelledby="workflows-title">
      <div className={s.head}>
        <div className={s.titles}>
          <Title2 as="h1" id="workflows-title" className={s.flush}>
            Workflows
          </Title2>
          {name && (
            <Subtitle1 as="h2" className={s.sub}>
              {name}
            </Subtitle1>
          )}
        </div>
        <SearchBox
          className={s.search}
          placeholder="Search workflows"
          aria-label="Search workflows"
          value={term}
          onChange={(_, data) => onChange(data.value)}
        />
      </div>
      <div className={s.busy} aria-live="polite">
        {busy && view.state === 'ready' && <Caption1>Searching...</Caption1>}
      </div>
      {view.state === 'loading' && <Spinner label="Loading workflows..." />}
      {view.state === 'error' && <LoadError />}
      {view.state === 'ready' &&
        (view.workflows.length === 0 ? (
          <EmptyState>{view.searched ? NOTHING_MATCHED : NO_WORKFLOWS}</EmptyState>
        ) : (
          <div className={grid.three}>
            {sortWorkflows(view.workflows).map((w) => (
              <WorkflowCard key={w.id} workflow={w} />
            ))}
          </div>
        ))}
    </section>
  );
}
