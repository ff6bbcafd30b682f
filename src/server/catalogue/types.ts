/**
 * Catalogue entries a server plugin contributes; upserted into the database at start-up. Ids are
 * the public numeric ids of section 7 (combination 10 is reconciliation, etc.). The shapes are
 * derived from schemas/catalogue/catalogue-contribution.schema.json, which also checks them at
 * start-up.
 */
export type { CatalogueContribution, CombinationSeed, ConnectorSeed, RecipeTemplateSeed, SolutionSeed, TriggerSeed, WorkflowSeed } from '../../core/wire-types';
