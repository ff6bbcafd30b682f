import { defineServerPlugin } from '../../src/server';
import { catalogue } from './catalogue';

/** The solutions of the catalogue (Finance, Operations, Customer Experience and those to come). */
export default defineServerPlugin({ id: 'catalogue-core', catalogue });
