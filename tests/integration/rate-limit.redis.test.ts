import { startTestServer, type TestServer } from '../support/server';

/**
 * With REDIS_URL, login attempts are counted in Redis, so two server processes enforce one
 * limit between them. Fails, never skips, when Redis is unreachable.
 */
const url = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

describe('rate limits shared through Redis', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const env = { REDIS_URL: url, AUTH_RATE_LIMIT: '3' };
    a = await startTestServer({ env });
    b = await startTestServer({ env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('counts attempts from one address across both servers', async () => {
    // a client address of its own, so earlier runs within the minute do not count
    const remoteAddress = `127.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
    const attempt = (s: TestServer) =>
      s.app.inject({ method: 'POST', url: '/api/platform/api-jwt-token/', remoteAddress, payload: { username: 'nobody@example.com', password: 'wrong' } });
    expect((await attempt(a)).statusCode).toBe(401);
    expect((await attempt(b)).statusCode).toBe(401);
    expect((await attempt(a)).statusCode).toBe(401);
    const fourth = await attempt(b);
    expect(fourth.statusCode).toBe(429);
    expect(JSON.parse(fourth.body)).toEqual({ status: 'error', message: 'Too many attempts. Please wait a minute and try again.' });
  });
});
