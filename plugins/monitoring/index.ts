import { definePlugin } from '../../src/app';

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
  ],
});
