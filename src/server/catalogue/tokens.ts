/** DI tokens of the catalogue module. */
export const CatalogueStore = Symbol('CatalogueStore');
/** The checked catalogue entries of all modules and plugins (a CollectedCatalogue). */
export const CatalogueEntries = Symbol('CatalogueEntries');
