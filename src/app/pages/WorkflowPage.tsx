import { useParams } from 'react-router-dom';
import { Body1, Spinner, Title2, makeStyles, tokens } from '@fluentui/react-components';
import type { Workflow } from '../../core/domain';
import { useApi, useBreadcrumb, useRegistry } from '../hooks';
import { LazyView } from '../components/LazyView';
import { EmptyState } from '../components/catalogue/Notice';
import { useLoad } from '../components/catalogue/use-load';
import type { WorkflowViewProps } from '../plugin';

export const NOTHING_FOUND = 'Oops, nothing found here sorry.';

const useStyles = makeStyles({
  head: { display: 'grid', gap: '6px', marginBottom: '20px', maxWidth: '860px' },
  desc: { color: tokens.colorNeutralForeground2 },
  flush: { margin: 0 },
});

/**
 * /workflow/{id} (spec section 2, Workflow detail): title and description from the workflow,
 * body = the view a plugin registered for the id, else 'Oops, nothing found here sorry.'.
 */
export default function WorkflowPage() {
  const { id = '' } = useParams();
  const s = useStyles();
  const api = useApi();
  const registry = useRegistry();
  const workflow = useLoad(() => api.get<Workflow>(`/api/platform/workflows/${id}/`), [api, id]);
  useBreadcrumb(workflow.data?.name, `/workflow/${id}`);
  const loader = registry.workflowViews.get(id);

  if (workflow.status === 'loading') return <Spinner label="Loading..." />;
  const props: WorkflowViewProps = { workflowId: Number(id) };
  return (
    <section aria-labelledby="workflow-title">
      {/* the page keeps its one h1 when the workflow could not be loaded */}
      <div className={s.head}>
        <Title2 as="h1" id="workflow-title" className={s.flush}>
          {workflow.data?.name ?? 'Workflow'}
        </Title2>
        {workflow.data?.descrption && <Body1 className={s.desc}>{workflow.data.descrption}</Body1>}
      </div>
      {loader ? <LazyView loader={loader} props={{ ...props }} /> : <EmptyState>{NOTHING_FOUND}</EmptyState>}
    </section>
  );
}
