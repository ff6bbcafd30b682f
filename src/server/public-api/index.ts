import { provide } from '../../core/plugin';
import { token, type Resolve, type Token } from '../../core/di';
import { DocumentSearch, EmotionAnalysis, FinancialAnalysis, InvoiceExtraction, InvoiceReconciliation } from '../ai/services';
import { defineServerPlugin } from '../plugin';
import * as T from '../tokens';
import { Automation } from '../automation';
import { Provider, RecipeControlToken } from '../provider';
import { CatalogueStore } from '../catalogue';
import { Accounts } from '../auth';
import { ApiKeys, ApiKeysToken } from './api-keys';
import { publicApiMigrations } from './migrations';
import { PublicApiServices } from './services';
import { registerPublicApiRoutes } from './routes';
import pkg from '../../../package.json';

/** API_KEY_RATE_LIMIT: calls one key may make per minute (REST and MCP together), 120 by default. */
export function apiKeyRateLimit(env: Record<string, string | undefined>): number {
  const raw = env.API_KEY_RATE_LIMIT;
  if (raw === undefined || raw === '') return 120;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new Error(`API_KEY_RATE_LIMIT must be a whole number from 1 to 1000000, not "${raw}"`);
  return n;
}

/** A service when a module of this server provides it (an AI plugin is installed), else undefined. */
function installed<S>(get: Resolve, service: Token<S>): S | undefined {
  return get(T.ServerPlugins).some((m) => m.provides?.some((p) => p.token === service)) ? get(service) : undefined;
}

/** What the public API's operations do, for a key's user. */
export const PublicApi = token<PublicApiServices>('PublicApiServices');

/**
 * The public API as a core module (its paths, /api/v1 and /mcp, are fixed): the users' API keys
 * (table api_keys), the REST routes, the OpenAPI document and docs page, and the MCP server.
 */
export const publicApiModule = defineServerPlugin({
  id: 'public-api',
  migrations: publicApiMigrations,
  provides: [
    provide(ApiKeysToken, (get) => new ApiKeys(get(T.Db), get(Accounts))),
    provide(
      PublicApi,
      (get) =>
        new PublicApiServices({
          engine: get(Automation),
          control: get(RecipeControlToken),
          provider: get(Provider),
          catalogue: get(CatalogueStore),
          files: get(T.FileStore),
          registry: get(T.Contributions),
          maxUploadBytes: get(T.ServerConfig).maxUploadBytes,
          ai: {
            emotion: installed(get, EmotionAnalysis),
            invoices: installed(get, InvoiceExtraction),
            search: installed(get, DocumentSearch),
            reconciliation: installed(get, InvoiceReconciliation),
            financial: installed(get, FinancialAnalysis),
          },
        }),
    ),
  ],
  needs: { keys: ApiKeysToken, services: PublicApi, config: T.ServerConfig },
  async routes(app, { keys, services, config }) {
    await registerPublicApiRoutes(app, {
      keys,
      services,
      keyRateLimit: apiKeyRateLimit((config as { env?: Record<string, string | undefined> }).env ?? process.env),
      maxUploadBytes: config.maxUploadBytes,
      version: pkg.version,
      publicUrl: config.publicUrl,
    });
  },
});

export { ApiKeys, ApiKeysToken, KEY_PREFIX, type ApiKeyView, type CreatedApiKey } from './api-keys';
export { API_PREFIX, DOCS_PATH, OPENAPI_PATH, NO_KEY, BAD_KEY } from './routes';
export { MCP_PATH } from './mcp';
export { TOOL_NAMES } from './operations';
