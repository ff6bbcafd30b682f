import { defineServerPlugin } from '../../src/server/plugin';
import { catalogue } from './catalogue';

/** Invoice-to-purchase-order reconciliation: workflow 10012 and combination 10. */
export default defineServerPlugin({ id: 'invoice-reconciliation', catalogue });
