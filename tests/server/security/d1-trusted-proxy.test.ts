import { createUser, startTestServer, type TestServer } from '../../support/server';

jest.setTimeout(60_000);

/**
 * Behind one trusted proxy (TRUST_PROXY=1) every request comes from the proxy's address; the
 * limits must count the client the proxy reports (X-Forwarded-For's right-most untrusted entry),
 * so one client's failed logins do not lock out the others behind the same proxy.
 */
describe('rate limits behind a trusted proxy key on the forwarded client', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ listen: true, env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT: '8' } });
  });
  afterAll(() => server.close());

  const login = (client: string, username: string, password: string, forwarded = client) =>
    fetch(`${server.url}/api/platform/api-jwt-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded },
      body: JSON.stringify({ username, password }),
    });

  it('eight failed logins from one forwarded client leave another client free', async () => {
    const user = await createUser(server, { password: 'right password 123' });
    for (let i = 0; i < 8; i++) expect((await login('203.0.113.7', 'nobody@example.com', 'wrong')).status).toBe(401);
    expect((await login('203.0.113.7', 'nobody@example.com', 'wrong')).status).toBe(429);
    // another client behind the same proxy, another account: not blocked
    expect((await login('198.51.100.20', user.email, 'right password 123')).status).toBe(200);
    // the right-most entry is the one the proxy wrote: a client cannot escape by prepending addresses
    expect((await login('203.0.113.7', 'nobody@example.com', 'wrong', '10.9.9.9, 203.0.113.7')).status).toBe(429);
  });
});
