import { provide } from '../../core/plugin';
import { userOf } from '../auth/guard';
import { badRequest, HttpError, notFound } from '../http/errors';
import { asId } from '../http/ids';
import { defineServerPlugin } from '../plugin';
import { votesMigrations } from './migrations';
import * as T from '../tokens';
import voteSchema from '../../../schemas/catalogue/vote.schema.json';
import { Votes, VoteStore } from './store';
import { CombinationFacts } from '../catalogue/combination-facts';

export const ALREADY_VOTED = 'You have already voted for this combination.';

/** Votes on coming-soon combinations (GET and POST /api/platform/votes). */
export const votesModule = defineServerPlugin({
  id: 'votes',
  migrations: votesMigrations,
  provides: [provide(Votes, (get) => new VoteStore(get(T.Db), get(CombinationFacts)))],
  needs: { votes: Votes },
  routes(app, { votes }) {
    app.get('/api/platform/votes', { auth: 'user' }, async (request) => votes.listVotes(userOf(request).id));

    app.post('/api/platform/votes', { auth: 'user', schema: { body: voteSchema } }, async (request, reply) => {
      const combinationId = asId((request.body as { combination_id: unknown }).combination_id);
      if (combinationId === undefined) throw badRequest('The combination id must be a number.');
      const outcome = await votes.vote(userOf(request).id, combinationId);
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
  },
});

export { Votes, VoteStore, type VoteOutcome, type VoteTallies } from './store';
