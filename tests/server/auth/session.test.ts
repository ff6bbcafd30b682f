import { TokenService, ACCESS_TTL_SECONDS, REFRESH_TTL_SECONDS } from '../../../src/server/auth/token-service';
import * as T from '../../../src/server/tokens';
import { createUser, login, startTestServer, type TestServer } from '../../support/server';

const LOGIN = '/api/platform/api-jwt-token/';
const REFRESH = '/api/platform/api-jwt-token-refresh/';
const USER_ID = '/api/platform/userId';
const NO_ACCOUNT = 'No active account found with the given credentials';

/** Decodes a JWT's payload without checking it (to look at its claims). */
function claims(jwt: string): Record<string, any> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
}

describe('login, refresh and userId', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  describe('POST /api/platform/api-jwt-token/', () => {
    it('returns an access token of 5 minutes and a refresh token of 1 day', async () => {
      const u = await createUser(server);
      const res = await server.call('POST', LOGIN, { body: { username: u.email, password: u.password } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['access', 'refresh']);
      const a = claims(res.body.access);
      const r = claims(res.body.refresh);
      expect(a).toMatchObject({ sub: String(u.id), token_type: 'access' });
      expect(r).toMatchObject({ sub: String(u.id), token_type: 'refresh' });
      expect(a.exp - a.iat).toBe(ACCESS_TTL_SECONDS);
      expect(r.exp - r.iat).toBe(REFRESH_TTL_SECONDS);
      expect(ACCESS_TTL_SECONDS).toBe(300);
      expect(REFRESH_TTL_SECONDS).toBe(86400);
    });

    it('finds the account whatever the case of the e-mail address', async () => {
      const u = await createUser(server, { email: 'mixed.case@example.com' });
      const tokens = await login(server, 'Mixed.Case@Example.COM', u.password);
      expect(claims(tokens.access).sub).toBe(String(u.id));
    });

    it('refuses a wrong password and an unknown account alike, with 401 and no access key', async () => {
      const u = await createUser(server);
      const wrong = await server.call('POST', LOGIN, { body: { username: u.email, password: 'not the password' } });
      const unknown = await server.call('POST', LOGIN, { body: { username: 'nobody@example.com', password: 'whatever it is' } });
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ status: 'error', message: NO_ACCOUNT, detail: NO_ACCOUNT });
        expect(res.body.access).toBeUndefined();
        // no status_code: the login screen shows 'Wrong email or password.' instead of reloading
        expect(res.body.status_code).toBeUndefined();
      }
    });

    it('issues tokens to an unverified user, whose userId then says is_verify false', async () => {
      const u = await createUser(server, { verified: false });
      const tokens = await login(server, u.email, u.password);
      const me = await server.call('GET', USER_ID, { token: tokens.access });
      expect(me.status).toBe(200);
      expect(me.body.is_verify).toBe(false);
    });

    it('rejects malformed bodies with one readable sentence', async () => {
      const missing = await server.call('POST', LOGIN, { body: { username: 'someone@example.com' } });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ status: 'error', message: 'Password is required.' });

      const extra = await server.call('POST', LOGIN, { body: { username: 'someone@example.com', password: 'x', admin: true } });
      expect(extra.status).toBe(400);
      expect(extra.body).toEqual({ status: 'error', message: '"admin" is not an accepted field.' });

      const wrongType = await server.call('POST', LOGIN, { body: { username: 'someone@example.com', password: 12345678 } });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body).toEqual({ status: 'error', message: 'Password must be text.' });

      const notJson = await server.call('POST', LOGIN, { body: '{"username":', headers: { 'content-type': 'application/json' } });
      expect(notJson.status).toBe(400);
      expect(notJson.body.status).toBe('error');
      expect(typeof notJson.body.message).toBe('string');
    });
  });

  describe('POST /api/platform/api-jwt-token-refresh/', () => {
    it('returns a new access token for a refresh token (and, rotated, the next refresh token)', async () => {
      const u = await createUser(server);
      const res = await server.call('POST', REFRESH, { body: { refresh: u.refresh } });
      expect(res.status).toBe(200);
      // issue 7, item 9: the refresh reply gains `refresh` beside the spec's `access`
      expect(Object.keys(res.body).sort()).toEqual(['access', 'refresh']);
      expect(claims(res.body.access)).toMatchObject({ sub: String(u.id), token_type: 'access' });
      const me = await server.call('GET', USER_ID, { token: res.body.access });
      expect(me.status).toBe(200);
      expect(me.body.userID).toBe(u.id);
    });

    it('does not take an access token as a refresh token', async () => {
      const u = await createUser(server);
      const res = await server.call('POST', REFRESH, { body: { refresh: u.access } });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: 'error', code: 'token_not_valid', detail: expect.any(String), message: expect.any(String) });
      expect(res.body.access).toBeUndefined();
    });

    it('refuses forged, expired and garbage refresh tokens with code token_not_valid', async () => {
      const u = await createUser(server);
      const forged = (await new TokenService('another-secret-key-that-is-long-enough-xyz').sign('refresh', u.id, 3600)).token;
      const tokens = server.container.get<TokenService>(T.TokenService);
      const expired = (await tokens.sign('refresh', u.id, -1)).token;
      for (const refresh of [forged, expired, 'not.a.jwt', u.refresh.slice(0, -2) + 'xx']) {
        const res = await server.call('POST', REFRESH, { body: { refresh } });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('token_not_valid');
        expect(res.body.status).toBe('error');
      }
    });

    it('refuses the refresh token of a deleted user', async () => {
      const u = await createUser(server);
      await server.db.deleteFrom('users').where('id', '=', u.id).execute();
      const res = await server.call('POST', REFRESH, { body: { refresh: u.refresh } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('token_not_valid');
    });

    it('rejects a body without refresh', async () => {
      const res = await server.call('POST', REFRESH, { body: {} });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: 'Refresh is required.' });
    });
  });

  describe('GET /api/platform/userId', () => {
    it('returns userID, workato_id, is_verify, time_zone and email', async () => {
      const u = await createUser(server);
      const res = await server.call('GET', USER_ID, { token: u.access });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ userID: u.id, workato_id: u.workatoId, is_verify: true, time_zone: '(GMT+00:00) UTC', email: u.email });
    });

    it('needs an access token: none, a refresh token, a forged or an expired one get 401', async () => {
      const u = await createUser(server);
      const tokens = server.container.get<TokenService>(T.TokenService);
      const forged = (await new TokenService('another-secret-key-that-is-long-enough-xyz').sign('access', u.id, 300)).token;
      const expired = (await new TokenService(server.config.secretKey, () => Date.now() - 10 * 60_000).sign('access', u.id, 300)).token;
      expect((await tokens.verify(u.access, 'access')).userId).toBe(u.id);
      const none = await server.call('GET', USER_ID);
      expect(none.status).toBe(401);
      for (const token of [u.refresh, forged, expired]) {
        const res = await server.call('GET', USER_ID, { token });
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ status: 'error', status_code: 401, code: 'token_not_valid' });
      }
    });
  });
});
