import type { FastifyInstance, FastifyRequest } from 'fastify';
import { provide } from '../../core/plugin';
import { userOf } from '../auth/guard';
import { getWithOrWithoutSlash } from '../catalogue/routes';
import { badRequest, forbidden, notFound } from '../http/errors';
import { asId, parseId } from '../http/ids';
import { defineServerPlugin } from '../plugin';
import * as T from '../tokens';
import { parseProxyCommand, parseProxyUrl, PROXY_ALLOWED_MESSAGE, PROXY_COMMAND_MESSAGE } from './proxy';
import { RecipeControlToken } from './recipe-control';
import { Provider, ProviderStore } from './store';
import { signWidgetToken } from './widget-token';
import { Connections } from '../connections';

/** The caller's own managed-user (workato) id, or 403 for any other. */
export function ownWorkatoId(request: FastifyRequest, given: number): number {
  const own = userOf(request).workatoId;
  if (own === null) throw forbidden('You have no automation workspace yet.');
  if (given !== own) throw forbidden('You can only reach your own automation workspace.');
  return own;
}

/** Registers a PUT route with and without its trailing slash (the spec writes both forms). */
function putWithOrWithoutSlash(app: FastifyInstance, path: string, handler: (request: FastifyRequest) => Promise<unknown>): void {
  app.put(path, { auth: 'user' }, handler);
  app.put(path.replace(/\/$/, ''), { auth: 'user' }, handler);
}

/**
 * The automation provider's calls (spec section 7), for the caller's own managed user only:
 * the proxy (GET recipe and connections; PUT start and stop), the user recipe records, the
 * setup status, and the connection widget's token. Never fetches anything: the database and the
 * recipe runner (RecipeControl, the automation engine) answer every allowed path; any other
 * path is refused with a 4xx.
 */
export const providerModule = defineServerPlugin({
  id: 'provider',
  provides: [provide(Provider, (get) => new ProviderStore(get(RecipeControlToken)))],
  needs: { provider: Provider, control: RecipeControlToken, config: T.ServerConfig, connections: Connections },
  routes(app, { provider, control, config, connections }) {
    app.get('/api/platform/proxy', { auth: 'user' }, async (request) => {
      const target = parseProxyUrl((request.query as { url?: unknown }).url);
      if (!target) throw badRequest(PROXY_ALLOWED_MESSAGE);
      const workatoId = ownWorkatoId(request, target.workatoId);
      if (target.kind === 'connections') {
        // every provider the user can connect has a row (not connected until a Connect succeeds)
        await connections.ensureRows(workatoId);
        return { result: await connections.rowsOf(workatoId) };
      }
      const recipe = await provider.getRecipe(workatoId, target.recipeId);
      if (!recipe) throw notFound('Recipe not found.');
      return recipe;
    });

    app.put('/api/platform/proxy', { auth: 'user' }, async (request) => {
      const body = request.body as { url?: unknown } | undefined;
      const command = parseProxyCommand(body && typeof body === 'object' ? body.url : undefined);
      if (!command) throw badRequest(PROXY_COMMAND_MESSAGE);
      const workatoId = ownWorkatoId(request, command.workatoId);
      const { running } = command.kind === 'start' ? await control.start(workatoId, command.recipeId) : await control.stop(workatoId, command.recipeId);
      return { success: true, running };
    });

    getWithOrWithoutSlash(app, '/api/platform/userByWorkatoRecipe/:id/', async (request) => {
      const workatoId = ownWorkatoId(request, parseId((request.params as { id: string }).id, 'The workato id'));
      await control.ensureRecords(workatoId);
      return { workato_recipes: await provider.listUserRecipes(workatoId) };
    });

    putWithOrWithoutSlash(app, '/api/platform/workatoRecipeStatus/:recipeId/', async (request) => {
      const recipeId = parseId((request.params as { recipeId: string }).recipeId, 'The recipe id');
      const own = userOf(request).workatoId;
      if (own === null) throw forbidden('You have no automation workspace yet.');
      const body = request.body as { status?: unknown } | undefined;
      const record = await control.setSetupStatus(own, recipeId, body && typeof body === 'object' ? body.status : undefined);
      return { status: 'success', workato_recipe: record };
    });

    app.post('/api/platform/workatoToken', { auth: 'user' }, async (request) => {
      const body = request.body as { WK_USER_ID?: unknown } | undefined;
      const given = asId(body && typeof body === 'object' ? body.WK_USER_ID : undefined);
      if (given === undefined) throw badRequest('WK_USER_ID must be your workato id.');
      const workatoId = ownWorkatoId(request, given);
      const user = userOf(request);
      const { token, exp } = await signWidgetToken(config.secretKey, { workatoId, userId: user.id, session: user.session, version: user.tokenVersion });
      return { access_token: token, expires_at: new Date(exp * 1000).toISOString() };
    });
  },
});

export { Provider, ProviderStore } from './store';
export { parseProxyUrl, parseProxyCommand, PROXY_ALLOWED_MESSAGE, PROXY_COMMAND_MESSAGE, type ProxyTarget, type ProxyCommand } from './proxy';
export { RecipeControlToken, type RecipeControl } from './recipe-control';
export { signWidgetToken, verifyWidgetToken, InvalidWidgetTokenError, WIDGET_TOKEN_TTL_SECONDS } from './widget-token';
