import { defineServerPlugin } from '../../src/server/plugin';
import { catalogue } from './catalogue';

/** Invoice data extraction: workflow 10004 and its combinations 1, 2, 8 and 9. */
export default defineServerPlugin({ id: 'invoice-extraction', catalogue });
