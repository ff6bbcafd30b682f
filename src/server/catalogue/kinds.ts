import { contributionKind } from '../../core/contributions';
import type { CatalogueTriggerDeclaration } from '../../core/catalogue/vocabulary';

/**
 * The catalogue triggers plugins declare (`contribute(CatalogueTriggers, defineCatalogueTrigger({...}))`):
 * a combination naming one (`trigger('xero_new_bill')`) is stored with its declared id, name and
 * icon. The engine's built-in triggers (BUILTIN_TRIGGERS) need no contribution.
 */
export const CatalogueTriggers = contributionKind<CatalogueTriggerDeclaration>('catalogue.trigger', 'Catalogue trigger', (t) => t.id);
