import { provide } from '../../core/plugin';
import { defineServerPlugin } from '../plugin';
import * as T from '../tokens';
import './schema';
import { catalogueMigrations } from './migrations';
import { collectCatalogue } from './collect';
import { upsertCatalogue } from './seed';
import { SqlCatalogueStore } from './store';
import { CatalogueEntries, CatalogueStore } from './tokens';
import { registerCatalogueRoutes } from './routes';
import { WorkflowTimes, workflowTimes } from './workflow-times';
import { Votes } from '../votes/store';
import { CombinationRecipes } from '../automation/combination-recipes';
import { CombinationWorkflows, combinationWorkflows } from './combination-workflows';
import { CombinationFacts, combinationFacts } from './combination-facts';
import { CatalogueTriggers } from './kinds';

/**
 * The catalogue: solutions, workflows and combinations contributed by plugins (their
 * `catalogue`), checked when the container is built (a clash of ids fails start-up naming both
 * plugins), upserted at start-up in one transaction; and its endpoints. It declares the
 * catalogue triggers plugins contribute (`CatalogueTriggers`). Votes, marketing and
 * the provider's records are modules of their own (src/server/votes, marketing, provider).
 */
export const catalogueModule = defineServerPlugin({
  id: 'catalogue',
  migrations: catalogueMigrations,
  declares: [CatalogueTriggers],
  provides: [
    provide(CatalogueEntries, (get) => collectCatalogue(get(T.ServerPlugins))),
    provide(CatalogueStore, (get) => new SqlCatalogueStore(get(T.Db), get(Votes), get(CombinationRecipes))),
    provide(WorkflowTimes, (get) => workflowTimes(get(T.Db))),
    provide(CombinationWorkflows, () => combinationWorkflows()),
    provide(CombinationFacts, () => combinationFacts()),
  ],
  needs: { db: T.Db, store: CatalogueStore, entries: CatalogueEntries, log: T.Logger },
  routes(app, { store }) {
    registerCatalogueRoutes(app, store);
  },
  async onStart({ db, entries, log }) {
    const result = await upsertCatalogue(db, entries, log);
    log.info(result, 'catalogue seeded');
  },
});

export { SqlCatalogueStore, iso } from './store';
export type { CombinationReply, WorkflowReply, Caller } from './store';
export { CatalogueStore, CatalogueEntries } from './tokens';
export { collectCatalogue, InvalidCatalogueError } from './collect';
export { CatalogueTriggers } from './kinds';
export { upsertCatalogue } from './seed';
export { WorkflowTimes, type WorkflowTimesService } from './workflow-times';
export { CombinationWorkflows, type CombinationWorkflowsService } from './combination-workflows';
export { CombinationFacts, type CombinationFactsService } from './combination-facts';
export { callerOf, getWithOrWithoutSlash } from './routes';
