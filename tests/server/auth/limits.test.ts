import * as T from '../../../src/server/tokens';
import { createUser, startTestServer, type TestServer } from '../../support/server';

const TOO_MANY = 'Too many attempts. Please wait a minute and try again.';

describe('rate limiting of the guessing and sending endpoints (AUTH_RATE_LIMIT=3)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { AUTH_RATE_LIMIT: '3' } });
  });
  afterAll(() => server.close());

  it('answers the 4th login attempt in a minute with 429 and a clear message, even with the right password', async () => {
    const u = await createUser(server);
    for (let i = 0; i < 3; i++) {
      const res = await server.call('POST', '/api/platform/api-jwt-token/', { body: { username: u.email, password: 'wrong guess' } });
      expect(res.status).toBe(401);
    }
    const fourth = await server.call('POST', '/api/platform/api-jwt-token/', { body: { username: u.email, password: u.password } });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({ status: 'error', message: TOO_MANY });
    expect(fourth.body.access).toBeUndefined();
    expect(fourth.headers['retry-after']).toBeDefined();
  });

  it.each([
    ['register', '/api/platform/register', { name: 'x' }],
    ['forgetPassword', '/api/platform/forgetPassword', { email: 'someone@example.com' }],
    ['resetPassword', '/api/platform/resetPassword', { access: 'MQ', password: 'long enough password' }],
    ['emailVerify', '/api/platform/emailVerify', { email: 'someone@example.com' }],
  ])('limits %s too', async (_name, url, body) => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await server.call('POST', url, { body })).status);
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
  });

  it('counts per client address: another address is not limited', async () => {
    const u = await createUser(server);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/platform/api-jwt-token/',
      payload: { username: u.email, password: u.password },
      remoteAddress: '10.1.2.3',
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('errors never leak a stack trace or a password hash', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      overrides: (c) => {
        c.rebind(T.PasswordHasher).toConstantValue({
          hash: async () => {
            throw new Error('hasher exploded at /secret/path/hasher.ts:42');
          },
          verify: async () => {
            throw new Error('hasher exploded at /secret/path/hasher.ts:42');
          },
        });
      },
    });
  });
  afterAll(() => server.close());

  it('turns an unexpected failure into a generic 500 with status error', async () => {
    const u = await server.db
      .insertInto('users')
      .values({ name: 'N', email: 'crash@example.com', password_hash: '$argon2id$v=19$m=1024,t=1,p=1$c2FsdHNhbHQ$aGFzaA', role: 'bm', company_name: 'C' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(u.id).toBeGreaterThan(0);
    for (const [url, body] of [
      ['/api/platform/api-jwt-token/', { username: 'crash@example.com', password: 'whatever' }],
      [
        '/api/platform/register',
        { name: 'N', username: 'n@example.com', email: 'n@example.com', role: 'bm', company: 'C', password: 'long enough password', accept_terms: true },
      ],
    ] as const) {
      const res = await server.call('POST', url, { body });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ status: 'error', message: 'Something went wrong on our side. Please try again.' });
      const raw = JSON.stringify(res.body);
      expect(raw).not.toMatch(/exploded|secret|hasher|stack|\bat\s/);
    }
  });
});
