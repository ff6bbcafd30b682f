import { pluginApiPrefix } from '../plugin';

/**
 * The API paths the product spec fixes (section 7) that a plugin may serve, in Fastify's route
 * syntax. Every other route of a plugin lives under `/api/plugins/{plugin id}/`.
 */
export const SPEC_PLUGIN_PATHS: readonly string[] = [
  '/api/platform/uploadworkflowfile',
  '/api/service/extract_data/',
  '/api/document-extraction/extract',
  '/api/document-extraction/status',
  '/api/document-extraction/complete',
  '/api/api/text_processing_json/',
  '/api/nlp-document-store/query',
  '/api/platform/invoiceReconciliationConfig',
  '/api/platform/invoiceReconciliationConfig/',
  '/api/platform/invoiceReconciliationConfig/:id/',
  '/api/platform/financialAnalysisConfig',
  '/api/platform/financialAnalysisConfig/',
  '/api/platform/financialAnalysisConfig/:id/',
  '/api/platform/invoice_reconciliation/comparison',
  '/api/platform/financial_analysis/start_comparison',
  '/api/financial-analysis/complete/',
  '/api/platform/send_to_mia',
  '/api/platform/apiEmailByMia',
  '/api/pitcher/page-summarization/',
  '/api/pitcher/generate',
  '/api/platform/monitoringData',
  '/api/platform/proxy',
  '/api/platform/workatoToken',
  '/api/platform/userByWorkatoRecipe/:workatoId/',
  '/api/platform/workatoRecipeStatus/:recipeId/',
];

const SPEC = new Set(SPEC_PLUGIN_PATHS.map((p) => p.replace(/\/$/, '')));

/** Whether a plugin may register a route at `url`. */
export function isAllowedPluginPath(pluginId: string, url: string): boolean {
  return url.startsWith(pluginApiPrefix(pluginId)) || SPEC.has(url.replace(/\/$/, ''));
}

export class PluginRouteError extends Error {
  constructor(pluginId: string, url: string) {
    super(`Plugin "${pluginId}" registers ${url}, which is neither a path of the spec (src/server/http/spec-paths.ts) nor under ${pluginApiPrefix(pluginId)}`);
    this.name = 'PluginRouteError';
  }
}
