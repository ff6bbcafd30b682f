import { defineServerPlugin } from '../../src/server';
import { catalogue } from './catalogue';

/** Expense management (coming soon): workflows 10005 and 10007, combinations 12, 13 and 14 to vote on. */
export default defineServerPlugin({ id: 'expense-management', catalogue });
