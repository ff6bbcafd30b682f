import { definePlugin } from '../../src/app';

/** Public landing pages: /welcome and /teaser. */
export default definePlugin({
  id: 'landing',
  routes: [
    { path: '/welcome', access: 'public', title: 'Welcome', view: { load: () => import('./WelcomePage') } },
    { path: '/teaser', access: 'public', title: 'Coming soon', view: { load: () => import('./TeaserPage') } },
  ],
});
