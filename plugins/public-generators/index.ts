import { definePlugin } from '../../src/app';

/** Public generators: /mia (press releases) and /hal (sales pitches). */
export default definePlugin({
  id: 'public-generators',
  routes: [
    { path: '/mia', access: 'public', title: 'Press release generator', view: { load: () => import('./MiaPage') } },
    { path: '/hal', access: 'public', title: 'AI pitch generator', view: { load: () => import('./HalPage') } },
  ],
});
