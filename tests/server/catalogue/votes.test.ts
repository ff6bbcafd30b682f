import { createUser, type TestServer, type TestUser } from '../../support/server';
import { startCatalogueServer } from './support';

jest.setTimeout(30_000);

const ALREADY = 'You have already voted for this combination.';

describe('votes on coming-soon combinations', () => {
  let server: TestServer, alice: TestUser, bob: TestUser;
  beforeAll(async () => ({ server, alice, bob } = await startCatalogueServer()));
  afterAll(() => server.close());

  const vote = (user: TestUser, combination_id: unknown) => server.call('POST', '/api/platform/votes', { token: user.access, body: { combination_id } });
  const card = async (user: TestUser, id: number) =>
    (await server.call('GET', '/api/platform/combinations', { token: user.access })).body.find((c: any) => c.id === id);

  it('counts a first vote (201), refuses a second (409) and still counts it once', async () => {
    const first = await vote(alice, 12);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ status: 'success', combination_id: 12, votes: 1 });

    const second = await vote(alice, 12);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ status: 'error', message: ALREADY });

    expect(await card(alice, 12)).toMatchObject({ votes: 1, my_vote: true });
    const one = await server.call('GET', '/api/platform/combination/12/', { token: alice.access });
    expect(one.body).toMatchObject({ votes: 1, my_vote: true });
  });

  it('shows my_vote to the voter only, and counts two users as two', async () => {
    expect(await card(bob, 12)).toMatchObject({ votes: 1, my_vote: false });
    const res = await vote(bob, '12');
    expect(res.status).toBe(201);
    expect(res.body.votes).toBe(2);
    expect(await card(bob, 12)).toMatchObject({ votes: 2, my_vote: true });
    expect(await card(alice, 12)).toMatchObject({ votes: 2, my_vote: true });
  });

  it('counts a race of two simultaneous votes by one user once', async () => {
    const carol = await createUser(server);
    const replies = await Promise.all([vote(carol, 13), vote(carol, 13), vote(carol, 13)]);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const rows = await server.db.selectFrom('votes').selectAll().where('combination_id', '=', 13).execute();
    expect(rows).toHaveLength(1);
    expect(await card(carol, 13)).toMatchObject({ votes: 1, my_vote: true });
  });

  it("lists only the caller's own votes, and they survive re-reading", async () => {
    const mine = await server.call('GET', '/api/platform/votes', { token: alice.access });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([{ combination_id: 12, user_id: alice.id }]);
    const again = await server.call('GET', '/api/platform/votes', { token: alice.access });
    expect(again.body).toEqual(mine.body);
    const dave = await createUser(server);
    expect((await server.call('GET', '/api/platform/votes', { token: dave.access })).body).toEqual([]);
  });

  it('shows the vote on the workflow page too', async () => {
    const res = await server.call('GET', '/api/platform/workflows/10005/', { token: alice.access });
    expect(res.body.combinations.find((c: any) => c.id === 12)).toMatchObject({ votes: 2, my_vote: true });
  });

  it('refuses votes for combinations that are not coming soon', async () => {
    const res = await vote(alice, 1);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Only combinations that are coming soon can be voted for.' });
    expect(await card(alice, 1)).toMatchObject({ votes: 0, my_vote: false });
  });

  it('answers 404 for an unknown combination', async () => {
    const res = await vote(alice, 4242);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', message: 'Combination not found.' });
  });

  it.each([['abc'], [0], [-3], [1.5], [true], [null], ['12abc'], [[12]]])('answers 400 for combination_id %j', async (id) => {
    const res = await vote(alice, id);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'The combination id must be a number.' });
  });

  it('answers 400 for a missing or odd body', async () => {
    const none = await server.call('POST', '/api/platform/votes', { token: alice.access, body: {} });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('The combination id must be a number.');
    const extra = await server.call('POST', '/api/platform/votes', { token: alice.access, body: { combination_id: 12, user_id: bob.id } });
    expect(extra.status).toBe(400);
  });
});
