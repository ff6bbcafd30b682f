import type { TestServer, TestUser } from '../../support/server';
import { CatalogueStore } from '../../../src/server/catalogue';
import { startCatalogueServer } from './support';

jest.setTimeout(30_000);

/** GET /api/platform/combinations is sent as JSON text made once per cached list (issue 7, Speed). */
describe('the combination list as cached JSON', () => {
  let server: TestServer, alice: TestUser, bob: TestUser;
  beforeAll(async () => ({ server, alice, bob } = await startCatalogueServer()));
  afterAll(() => server.close());

  const list = (user: TestUser) => server.call('GET', '/api/platform/combinations', { token: user.access });

  it('sends the same JSON as the list itself, typed as JSON', async () => {
    const res = await list(alice);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const store = server.container.get(CatalogueStore);
    expect(res.body).toEqual(await store.listCombinations({ userId: alice.id, workatoId: alice.workatoId }));
    expect(res.body.length).toBeGreaterThan(0);
  });

  it('serializes a cached list once, and makes it again after a vote, for the voter only', async () => {
    const store = server.container.get(CatalogueStore);
    const caller = { userId: alice.id, workatoId: alice.workatoId };
    const before = await store.combinationsJson(caller);
    expect(await store.combinationsJson(caller)).toBe(before);
    const bobBefore = (await list(bob)).body.find((c: { id: number }) => c.id === 12);

    expect((await server.call('POST', '/api/platform/votes', { token: alice.access, body: { combination_id: 12 } })).status).toBe(201);

    const after = (await list(alice)).body.find((c: { id: number }) => c.id === 12);
    expect(after).toMatchObject({ my_vote: true, votes: bobBefore.votes + 1 });
    expect((await list(bob)).body.find((c: { id: number }) => c.id === 12)).toMatchObject({ my_vote: false, votes: bobBefore.votes + 1 });
  });
});
