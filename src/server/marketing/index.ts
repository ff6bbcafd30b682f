import { provide } from '../../core/plugin';
import { userOf } from '../auth/guard';
import { defineServerPlugin } from '../plugin';
import { marketingMigrations } from './migrations';
import * as T from '../tokens';
import marketingSchema from '../../../schemas/catalogue/marketing.schema.json';
import { Marketing, MarketingStore } from './store';

/** POST /api/platform/marketing: the home page's 'Great!' acknowledgement. */
export const marketingModule = defineServerPlugin({
  id: 'marketing',
  migrations: marketingMigrations,
  provides: [provide(Marketing, (get) => new MarketingStore(get(T.Db)))],
  needs: { marketing: Marketing },
  routes(app, { marketing }) {
    app.post('/api/platform/marketing', { auth: 'user', schema: { body: marketingSchema } }, async (request) => {
      const { topic } = request.body as { topic: string };
      await marketing.recordMarketingEvent(userOf(request).id, topic.trim());
      return { status: 'success' };
    });
  },
});

export { Marketing, MarketingStore } from './store';
