import { defineServerPlugin } from '../../src/server/plugin';
import { catalogue } from './catalogue';

/** Financial analysis reports: workflow 10013 and combination 11. */
export default defineServerPlugin({ id: 'financial-analysis', catalogue });
