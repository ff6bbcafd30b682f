import { CombinationLinks, contribute } from '../../src/core';
import { definePlugin } from '../../src/app';

/** The in-app path of a workflow's runs: it opens the solution's dashboard on that workflow. */
export const workflowMonitoringPath = (workflowId: number) => `/monitoring/workflow/${workflowId}`;

/** The ML Monitoring Dashboard of a solution (/monitoring/{id}), drawn from the user's real runs. */
export default definePlugin({
  id: 'monitoring',
  routes: [
    {
      path: '/monitoring/:id',
      access: 'login',
      title: 'Monitoring',
      view: {
        load: () => import(/* webpackChunkName: "page-monitoring" */ './ui/MonitoringPage'),
      },
    },
    {
      path: '/monitoring/workflow/:workflowId',
      access: 'login',
      title: 'Monitoring',
      view: {
        load: () => import(/* webpackChunkName: "page-monitoring-workflow" */ './ui/WorkflowMonitoringRedirect'),
      },
    },
  ],
  contributes: [
    // every running combination's card (on Home and in the lists) links to its workflow's runs
    contribute(CombinationLinks, {
      id: 'monitoring',
      label: 'Monitoring',
      to: (c) => (c.running ? workflowMonitoringPath(c.workflow_id) : undefined),
    }),
  ],
});
