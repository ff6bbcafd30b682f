import type { FastifyInstance, FastifyRequest, RouteHandlerMethod, preHandlerAsyncHookHandler } from 'fastify';
import type { Container } from 'inversify';
import { requireUser, type AuthUser } from '../auth/guard';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors';
import searchSchema from '../../../schemas/catalogue/search-workflow-template.schema.json';
import voteSchema from '../../../schemas/catalogue/vote.schema.json';
import marketingSchema from '../../../schemas/catalogue/marketing.schema.json';
import type { Caller, SqlCatalogueStore } from './store';
import { CatalogueStore } from './tokens';
import { asId, parseId, validateBody } from './validation';
import { parseProxyUrl, PROXY_ALLOWED_MESSAGE } from './proxy';

export const ALREADY_VOTED = 'You have already voted for this combination.';

function userOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw new Error('requireUser did not run');
  return request.user;
}

function callerOf(request: FastifyRequest): Caller {
  const u = userOf(request);
  return { userId: u.id, workatoId: u.workatoId };
}

/** The caller's own managed-user (workato) id, or 403 for any other. */
function ownWorkatoId(request: FastifyRequest, given: number): number {
  const own = userOf(request).workatoId;
  if (own === null) throw forbidden('You have no automation workspace yet.');
  if (given !== own) throw forbidden('You can only reach your own automation workspace.');
  return own;
}

/**
 * The catalogue, vote, marketing and (read-only) provider-proxy endpoints of spec section 7.
 * Every one needs a logged-in, verified user.
 */
export function registerCatalogueRoutes(app: FastifyInstance, container: Container): void {
  const auth: preHandlerAsyncHookHandler = requireUser(container);
  const store = () => container.get<SqlCatalogueStore>(CatalogueStore);
  type Params = { id: string };

  /** Paths of the spec end with a slash; the same path without it is served too. */
  const getWithOrWithoutSlash = (url: string, handler: RouteHandlerMethod) => {
    app.get(url, { preHandler: auth }, handler);
    app.get(url.replace(/\/$/, ''), { preHandler: auth }, handler);
  };

  app.get('/api/platform/combinations', { preHandler: auth }, async (request) => store().listCombinations(callerOf(request)));

  getWithOrWithoutSlash('/api/platform/combination/:id/', async (request) => {
    const id = parseId((request.params as Params).id, 'The combination id');
    const c = await store().getCombination(callerOf(request), id);
    if (!c) throw notFound('Combination not found.');
    return c;
  });

  app.get('/api/platform/solutions', { preHandler: auth }, async () => store().listSolutions());

  getWithOrWithoutSlash('/api/platform/solution/:id/', async (request) => {
    const id = parseId((request.params as Params).id, 'The solution id');
    const s = await store().getSolution(id);
    if (!s) throw notFound('Solution not found.');
    return s;
  });

  getWithOrWithoutSlash('/api/platform/workflows/:id/', async (request) => {
    const id = parseId((request.params as Params).id, 'The workflow id');
    const w = await store().getWorkflow(callerOf(request), id);
    if (!w) throw notFound('Workflow not found.');
    return w;
  });

  app.post(
    '/api/platform/searchWorkflowTemplate',
    { preHandler: [auth, validateBody(searchSchema)] },
    async (request) => {
      const body = request.body as { SolutionId: number | string; Query: string };
      const solutionId = asId(body.SolutionId);
      if (solutionId === undefined) throw badRequest('SolutionId must be a number.');
      if (!(await store().solutionExists(solutionId))) throw notFound('Solution not found.');
      return store().searchWorkflows(solutionId, body.Query);
    },
  );

  app.get('/api/platform/votes', { preHandler: auth }, async (request) => store().listVotes(userOf(request).id));

  app.post('/api/platform/votes', { preHandler: [auth, validateBody(voteSchema)] }, async (request, reply) => {
    const combinationId = asId((request.body as { combination_id: unknown }).combination_id);
    if (combinationId === undefined) throw badRequest('combination_id must be a number.');
    const outcome = await store().vote(userOf(request).id, combinationId);
    switch (outcome.kind) {
      case 'not-found':
        throw notFound('Combination not found.');
      case 'not-coming-soon':
        throw badRequest('Only combinations that are coming soon can be voted for.');
      case 'already-voted':
        throw new HttpError(409, ALREADY_VOTED, { combination_id: combinationId, votes: outcome.votes });
      case 'voted':
        return reply.code(201).send({ status: 'success', combination_id: combinationId, votes: outcome.votes });
    }
  });

  app.post('/api/platform/marketing', { preHandler: [auth, validateBody(marketingSchema)] }, async (request) => {
    const { topic } = request.body as { topic: string };
    await store().recordMarketingEvent(userOf(request).id, topic.trim());
    return { status: 'success' };
  });

  // The read part of the automation-provider proxy: never fetches anything, answers the two
  // allowed paths from the database, for the caller's own managed user only.
  app.get('/api/platform/proxy', { preHandler: auth }, async (request) => {
    const target = parseProxyUrl((request.query as { url?: unknown }).url);
    if (!target) throw badRequest(PROXY_ALLOWED_MESSAGE);
    const workatoId = ownWorkatoId(request, target.workatoId);
    if (target.kind === 'connections') return { result: await store().listConnections(workatoId) };
    const recipe = await store().getRecipe(workatoId, target.recipeId);
    if (!recipe) throw notFound('Recipe not found.');
    return recipe;
  });

  getWithOrWithoutSlash('/api/platform/userByWorkatoRecipe/:id/', async (request) => {
    const workatoId = ownWorkatoId(request, parseId((request.params as Params).id, 'The workato id'));
    return { workato_recipes: await store().listUserRecipes(workatoId) };
  });
}
