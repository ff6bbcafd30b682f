import { token } from '../../core/di';
import type { SqlCatalogueStore } from './store';
import type { CollectedCatalogue } from './collect';

/** DI tokens of the catalogue module. */
export const CatalogueStore = token<SqlCatalogueStore>('CatalogueStore');
/** The checked catalogue entries of all modules and plugins. */
export const CatalogueEntries = token<CollectedCatalogue>('CatalogueEntries');
