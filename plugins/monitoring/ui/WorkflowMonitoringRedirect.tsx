import { useEffect, useState } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components';
import { ButtonLink, useApi, useBreadcrumb } from '../../../src/app';

export const WORKFLOW_NOT_FOUND = 'This workflow could not be found, so its runs cannot be shown.';

/**
 * /monitoring/workflow/{id}: where a running combination's Monitoring link points. The dashboard
 * is per solution (/monitoring/{solution}), so this finds the workflow's solution and opens the
 * dashboard on that workflow's tab.
 */
export default function WorkflowMonitoringRedirect() {
  const { workflowId = '' } = useParams();
  const api = useApi();
  const [target, setTarget] = useState<string | null | undefined>();

  useEffect(() => {
    let live = true;
    api
      .get<{ id?: number; solution_id?: number }>(`/api/platform/workflows/${encodeURIComponent(workflowId)}/`)
      .then((w) => {
        if (!live) return;
        setTarget(typeof w?.solution_id === 'number' ? `/monitoring/${w.solution_id}?workflow=${encodeURIComponent(workflowId)}` : null);
      })
      .catch((e: unknown) => {
        console.log(e);
        if (live) setTarget(null);
      });
    return () => {
      live = false;
    };
  }, [api, workflowId]);

  if (target) return <Navigate to={target} replace />;
  if (target === undefined) return <Spinner label="Opening the monitoring dashboard..." />;
  return <NotFound workflowId={workflowId} />;
}

/** Only this state takes a breadcrumb: on success the dashboard takes its own. */
function NotFound({ workflowId }: { workflowId: string }) {
  useBreadcrumb('Monitoring', `/monitoring/workflow/${workflowId}`);
  return (
    <section aria-label="Monitoring">
      <MessageBar intent="error">
        <MessageBarBody>{WORKFLOW_NOT_FOUND}</MessageBarBody>
      </MessageBar>
      <p>
        <ButtonLink to="/home" appearance="secondary">
          Back to Home
        </ButtonLink>
      </p>
    </section>
  );
}
