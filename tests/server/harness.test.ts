import { createUser, startTestServer, type TestServer } from '../support/server';

describe('test server harness', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers unknown API paths with a JSON 404, never HTML or a stack', async () => {
    const res = await server.call('GET', '/api/platform/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', message: 'Not found.' });
  });

  it('creates users with managed-user ids that are never 1', async () => {
    const u = await createUser(server);
    expect(u.id).toBeGreaterThan(1000);
    expect(u.workatoId).toBeGreaterThan(100000);
  });
});
