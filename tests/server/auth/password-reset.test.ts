import { RESET_TTL_SECONDS, TokenService } from '../../../src/server/auth/token-service';
import * as T from '../../../src/server/tokens';
import { createUser, linkIn, login, startTestServer, type TestServer, type TestUser } from '../../support/server';

const FORGET = '/api/platform/forgetPassword';
const RESET = '/api/platform/resetPassword';
const SENT = 'If an account exists for that address, we have sent a link to reset the password.';
const INVALID = 'This password reset link is invalid or has expired.';
const access = (id: number) => Buffer.from(String(id)).toString('base64url');

function reset(server: TestServer, token: string | null, body: Record<string, unknown>, scheme = 'Token') {
  return server.call('POST', RESET, { body, headers: token === null ? {} : { authorization: `${scheme} ${token}` } });
}

describe('forgotten password and reset', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** Asks for a reset link and reads it from the e-mail. */
  async function requestLink(u: TestUser, asTyped = u.email): Promise<URL> {
    const before = server.mailer.sent.length;
    const res = await server.call('POST', FORGET, { body: { email: asTyped } });
    expect(res.body).toEqual({ status: 'success', message: SENT });
    for (let i = 0; i < 200 && !server.mailer.sent.slice(before).some((m) => m.to === u.email); i++) await new Promise((r) => setTimeout(r, 10));
    const mail = server.mailer.sent.slice(before).find((m) => m.to === u.email);
    if (!mail) throw new Error('no reset mail');
    return linkIn(server, mail);
  }

  describe('POST /api/platform/forgetPassword', () => {
    it('e-mails a reset link with token, access (the user id in base64url) and username', async () => {
      const u = await createUser(server, { name: 'Grace Hopper' });
      const link = await requestLink(u, u.email.toUpperCase());
      expect(link.origin + link.pathname).toBe('http://localhost:3000/reset-password');
      expect(link.searchParams.get('access')).toBe(access(u.id));
      expect(Buffer.from(link.searchParams.get('access')!, 'base64url').toString()).toBe(String(u.id));
      expect(link.searchParams.get('username')).toBe(u.email);
      const claims = await server.container.get<TokenService>(T.TokenService).verify(link.searchParams.get('token')!, 'reset');
      expect(claims.userId).toBe(u.id);
      expect(claims.exp - claims.iat).toBe(RESET_TTL_SECONDS);
      const mail = server.mailer.sent.filter((m) => m.to === u.email).at(-1)!;
      expect(mail.subject).toBe('Reset your Flowmatic password');
      expect(mail.text).toContain('Hi Grace,');
      expect(mail.html).toContain('Reset my password');
      expect(mail.text).toContain(`&username=${encodeURIComponent(u.email)}`);
    });

    it('gives the same reply for an unknown address, and sends nothing', async () => {
      const before = server.mailer.sent.length;
      const res = await server.call('POST', FORGET, { body: { email: 'nobody-here@example.com' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', message: SENT });
      await new Promise((r) => setTimeout(r, 100));
      expect(server.mailer.sent.length).toBe(before);
    });

    it('answers a malformed address with status error and a message', async () => {
      for (const body of [{ email: 'not-an-email' }, {}, { email: 'a@example.com', extra: 1 }]) {
        const res = await server.call('POST', FORGET, { body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ status: 'error', message: expect.any(String) });
      }
      expect((await server.call('POST', FORGET, { body: { email: 'not-an-email' } })).body.message).toBe('Email must be a valid e-mail address.');
    });
  });

  describe('POST /api/platform/resetPassword', () => {
    it('end to end: forgotten password, link, new password, log in with it (and not with the old one)', async () => {
      const u = await createUser(server);
      const link = await requestLink(u);
      const res = await reset(server, link.searchParams.get('token'), { access: link.searchParams.get('access'), password: 'a brand new password' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', message: 'Your password has been reset. Please log in.' });
      await expect(login(server, u.email, u.password)).rejects.toThrow(/401/);
      const tokens = await login(server, u.email, 'a brand new password');
      expect((await server.call('GET', '/api/platform/userId', { token: tokens.access })).status).toBe(200);
    });

    it("signs out every session that existed before the reset, a thief's included", async () => {
      const u = await createUser(server);
      const stolen = await login(server, u.email, u.password);
      const link = await requestLink(u);
      await reset(server, link.searchParams.get('token'), { access: link.searchParams.get('access'), password: 'a brand new password' });
      expect((await server.call('GET', '/api/platform/userId', { token: stolen.access })).status).toBe(401);
      const refresh = await server.call('POST', '/api/platform/api-jwt-token-refresh/', { body: { refresh: stolen.refresh } });
      expect(refresh).toMatchObject({ status: 401, body: { code: 'token_not_valid' } });
    });

    it('refuses a link used twice', async () => {
      const u = await createUser(server);
      const link = await requestLink(u);
      const token = link.searchParams.get('token');
      expect((await reset(server, token, { access: access(u.id), password: 'first new password' })).status).toBe(200);
      const again = await reset(server, token, { access: access(u.id), password: 'second new password' });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ status: 'error', message: INVALID });
      await login(server, u.email, 'first new password');
    });

    it('retires older links once the password has been reset', async () => {
      const u = await createUser(server);
      const older = await requestLink(u);
      const newer = await requestLink(u);
      expect((await reset(server, newer.searchParams.get('token'), { access: access(u.id), password: 'the newest password' })).status).toBe(200);
      const res = await reset(server, older.searchParams.get('token'), { access: access(u.id), password: 'an older link password' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(INVALID);
    });

    it('refuses a token whose access names another user, and does not use it up', async () => {
      const u = await createUser(server);
      const other = await createUser(server);
      const link = await requestLink(u);
      const token = link.searchParams.get('token');
      for (const wrong of [access(other.id), String(u.id), 'bm90LWEtbnVtYmVy', '!!!']) {
        const res = await reset(server, token, { access: wrong, password: 'hijacked password' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ status: 'error', message: INVALID });
      }
      await login(server, other.email, other.password);
      expect((await reset(server, token, { access: access(u.id), password: 'rightful new password' })).status).toBe(200);
    });

    it('refuses forged, expired, never-issued, wrong-type and missing tokens', async () => {
      const u = await createUser(server);
      const tokens = server.container.get<TokenService>(T.TokenService);
      const forged = (await new TokenService('another-secret-key-that-is-long-enough-xyz').sign('reset', u.id, 3600)).token;
      const expired = (await new TokenService(server.config.secretKey, () => Date.now() - 2 * 3600_000).sign('reset', u.id, RESET_TTL_SECONDS)).token;
      const expiredNow = (await tokens.sign('reset', u.id, -1)).token;
      const neverIssued = (await tokens.sign('reset', u.id, 3600)).token;
      const verifyToken = (await tokens.sign('verify', u.id, 3600)).token;
      for (const token of [forged, expired, expiredNow, neverIssued, verifyToken, u.access, 'garbage']) {
        const res = await reset(server, token, { access: access(u.id), password: 'attacker password' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ status: 'error', message: INVALID });
      }
      expect((await reset(server, null, { access: access(u.id), password: 'attacker password' })).status).toBe(400);
      await login(server, u.email, u.password);
    });

    it('refuses an expired link that was issued and recorded', async () => {
      const u = await createUser(server);
      const link = await requestLink(u);
      const token = link.searchParams.get('token')!;
      const { jti } = await server.container.get<TokenService>(T.TokenService).verify(token, 'reset');
      await server.db
        .updateTable('one_time_tokens')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('jti', '=', jti)
        .execute();
      const res = await reset(server, token, { access: access(u.id), password: 'too late password' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(INVALID);
    });

    it('validates the new password and the body', async () => {
      const u = await createUser(server);
      const link = await requestLink(u);
      const token = link.searchParams.get('token');
      const short = await reset(server, token, { access: access(u.id), password: 'short' });
      expect(short.status).toBe(400);
      expect(short.body).toEqual({ status: 'error', message: 'Passwords must be at least 8 characters long.' });
      const missing = await reset(server, token, { password: 'long enough password' });
      expect(missing.body).toEqual({ status: 'error', message: 'Access is required.' });
      const extra = await reset(server, token, { access: access(u.id), password: 'long enough password', email: u.email });
      expect(extra.body).toEqual({ status: 'error', message: '"email" is not an accepted field.' });
      // none of these used the link up
      expect((await reset(server, token, { access: access(u.id), password: 'long enough password' })).status).toBe(200);
    });

    it('verifies an unverified account: the link proved the mailbox is theirs', async () => {
      const u = await createUser(server, { verified: false });
      const link = await requestLink(u);
      expect((await reset(server, link.searchParams.get('token'), { access: access(u.id), password: 'verified by reset' })).status).toBe(200);
      const tokens = await login(server, u.email, 'verified by reset');
      expect((await server.call('GET', '/api/platform/userId', { token: tokens.access })).body.is_verify).toBe(true);
    });
  });
});
