import { defineServerPlugin } from '../../src/server/plugin';
import { catalogue } from './catalogue';

/** Intelligent (natural-language) document search: workflow 10011 and combination 5. */
export default defineServerPlugin({ id: 'document-search', catalogue });
