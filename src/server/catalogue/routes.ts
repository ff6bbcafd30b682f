import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { userOf } from '../auth/guard';
import { badRequest, notFound } from '../http/errors';
import { asId, parseId } from '../http/ids';
import searchSchema from '../../../schemas/catalogue/search-workflow-template.schema.json';
import type { Caller, SqlCatalogueStore } from './store';

export function callerOf(request: FastifyRequest): Caller {
  const u = userOf(request);
  return { userId: u.id, workatoId: u.workatoId };
}

/** Paths of the spec end with a slash; the same path without it is served too. */
export function getWithOrWithoutSlash(app: FastifyInstance, url: string, handler: RouteHandlerMethod): void {
  app.get(url, { auth: 'user' }, handler);
  app.get(url.replace(/\/$/, ''), { auth: 'user' }, handler);
}

/** The catalogue endpoints of spec section 7. Every one needs a logged-in, verified user. */
export function registerCatalogueRoutes(app: FastifyInstance, store: SqlCatalogueStore): void {
  type Params = { id: string };

  // the list comes as JSON text made once per cached list (per user, until a catalogue, vote or recipe row changes)
  app.get('/api/platform/combinations', { auth: 'user' }, async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(await store.combinationsJson(callerOf(request))),
  );

  getWithOrWithoutSlash(app, '/api/platform/combination/:id/', async (request) => {
    const id = parseId((request.params as Params).id, 'The combination id');
    const c = await store.getCombination(callerOf(request), id);
    if (!c) throw notFound('Combination not found.');
    return c;
  });

  app.get('/api/platform/solutions', { auth: 'user' }, async () => store.listSolutions());

  getWithOrWithoutSlash(app, '/api/platform/solution/:id/', async (request) => {
    const id = parseId((request.params as Params).id, 'The solution id');
    const s = await store.getSolution(id);
    if (!s) throw notFound('Solution not found.');
    return s;
  });

  getWithOrWithoutSlash(app, '/api/platform/workflows/:id/', async (request) => {
    const id = parseId((request.params as Params).id, 'The workflow id');
    const w = await store.getWorkflow(callerOf(request), id);
    if (!w) throw notFound('Workflow not found.');
    return w;
  });

  app.post('/api/platform/searchWorkflowTemplate', { auth: 'user', schema: { body: searchSchema } }, async (request) => {
    const body = request.body as { SolutionId: number | string; Query: string };
    const solutionId = asId(body.SolutionId);
    if (solutionId === undefined) throw badRequest('SolutionId must be a number.');
    if (!(await store.solutionExists(solutionId))) throw notFound('Solution not found.');
    return store.searchWorkflows(solutionId, body.Query);
  });
}
