import { defineServerPlugin, type ServerPlugin } from '../plugin';
import * as T from '../tokens';
import type { Db } from '../db/database';
import './schema';
import { catalogueMigrations } from './migrations';
import { collectCatalogue, type CollectedCatalogue } from './collect';
import { upsertCatalogue, type SeedLog } from './seed';
import { SqlCatalogueStore } from './store';
import { CatalogueEntries, CatalogueStore } from './tokens';
import { registerCatalogueRoutes } from './routes';

/**
 * The catalogue: solutions, workflows and combinations contributed by plugins (their
 * `catalogue`), checked when the container is built (a clash of ids fails start-up naming both
 * plugins), upserted at start-up in one transaction; the catalogue, votes and marketing
 * endpoints; and the read part of the automation-provider proxy.
 */
export const catalogueModule = defineServerPlugin({
  id: 'catalogue',
  migrations: catalogueMigrations,
  bindings(container) {
    const plugins = container.get<ServerPlugin[]>(T.ServerPlugins);
    container.bind(CatalogueEntries).toConstantValue(collectCatalogue(plugins));
    container
      .bind(CatalogueStore)
      .toDynamicValue((ctx) => new SqlCatalogueStore(ctx.get<Db>(T.Db)))
      .inSingletonScope();
  },
  routes(app, { container }) {
    registerCatalogueRoutes(app, container);
  },
  async onStart({ container }) {
    const result = await upsertCatalogue(
      container.get<Db>(T.Db),
      container.get<CollectedCatalogue>(CatalogueEntries),
      container.get<SeedLog>(T.Logger),
    );
    container.get<SeedLog & { info(o: object, m: string): void }>(T.Logger).info(result, 'catalogue seeded');
  },
});

export { SqlCatalogueStore } from './store';
export type { CombinationReply, WorkflowReply, Caller } from './store';
export { CatalogueStore, CatalogueEntries } from './tokens';
export { collectCatalogue, InvalidCatalogueError } from './collect';
export { upsertCatalogue } from './seed';
