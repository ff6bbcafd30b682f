import { defineServerPlugin } from '../../src/server/plugin';
import { catalogue } from './catalogue';

/** Document data extraction: workflow 10006 and its combinations 3 and 4. */
export default defineServerPlugin({ id: 'document-extraction', catalogue });
