import { definePlugin } from '../../src/app';
import { BASIC_VIEW_KEY, DEFAULT_VIEW_KEY } from '../../src/core';

const triggerConnector = { load: () => import('./TriggerConnectorView') };
const basic = { load: () => import('./BasicView') };

/**
 * Combination setup views (spec section 2, Combination setup screens): 1, 8 and 9 use the
 * trigger/connector view; basic variants and all other combinations the basic view.
 */
export default definePlugin({
  id: 'automation-views',
  combinationViews: {
    1: triggerConnector,
    8: triggerConnector,
    9: triggerConnector,
    [BASIC_VIEW_KEY]: basic,
    [DEFAULT_VIEW_KEY]: basic,
  },
});
