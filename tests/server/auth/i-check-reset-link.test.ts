import { RESET_TTL_SECONDS, TokenService } from '../../../src/server/auth/token-service';
import * as T from '../../../src/server/tokens';
import { createUser, linkIn, login, startTestServer, type TestServer, type TestUser } from '../../support/server';

const CHECK = '/api/platform/checkResetLink';
const RESET = '/api/platform/resetPassword';
const access = (id: number) => Buffer.from(String(id)).toString('base64url');
const LIVE = { status: 'success', valid: true };
const EXPIRED = { status: 'success', valid: false, reason: 'expired', message: 'This password reset link has expired.' };
const USED = { status: 'success', valid: false, reason: 'used', message: 'This password reset link has already been used.' };
const INVALID = { status: 'success', valid: false, reason: 'invalid', message: 'This password reset link is invalid or has expired.' };

describe('POST /api/platform/checkResetLink: the reset page tells a dead link before anything is typed', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const check = (token: string | null, body: Record<string, unknown>) =>
    server.call('POST', CHECK, { body, headers: token === null ? {} : { authorization: `Token ${token}` } });

  async function requestLink(u: TestUser): Promise<{ token: string; access: string }> {
    const before = server.mailer.sent.length;
    await server.call('POST', '/api/platform/forgetPassword', { body: { email: u.email } });
    for (let i = 0; i < 200 && !server.mailer.sent.slice(before).some((m) => m.to === u.email); i++) await new Promise((r) => setTimeout(r, 10));
    const mail = server.mailer.sent.slice(before).find((m) => m.to === u.email);
    if (!mail) throw new Error('no reset mail');
    const link = linkIn(server, mail);
    return { token: link.searchParams.get('token')!, access: link.searchParams.get('access')! };
  }

  it('says a live link is live, any number of times, without using it up', async () => {
    const u = await createUser(server);
    const link = await requestLink(u);
    for (let i = 0; i < 3; i++) {
      const res = await check(link.token, { access: link.access });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(LIVE);
    }
    const reset = await server.call('POST', RESET, {
      body: { access: link.access, password: 'a brand new password' },
      headers: { authorization: `Token ${link.token}` },
    });
    expect(reset.status).toBe(200);
    await login(server, u.email, 'a brand new password');
  });

  it('says a used link was used, and an older link retired by the reset too', async () => {
    const u = await createUser(server);
    const older = await requestLink(u);
    const link = await requestLink(u);
    await server.call('POST', RESET, { body: { access: link.access, password: 'a brand new password' }, headers: { authorization: `Token ${link.token}` } });
    expect((await check(link.token, { access: link.access })).body).toEqual(USED);
    expect((await check(older.token, { access: older.access })).body).toEqual(USED);
  });

  it('says an expired link expired: by its record, and by its signed expiry', async () => {
    const u = await createUser(server);
    const link = await requestLink(u);
    const { jti } = await server.container.get<TokenService>(T.TokenService).verify(link.token, 'reset');
    await server.db
      .updateTable('one_time_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('jti', '=', jti)
      .execute();
    expect((await check(link.token, { access: link.access })).body).toEqual(EXPIRED);
    const signedLongAgo = (await new TokenService(server.config.secretKey, () => Date.now() - 2 * 3600_000).sign('reset', u.id, RESET_TTL_SECONDS)).token;
    expect((await check(signedLongAgo, { access: access(u.id) })).body).toEqual(EXPIRED);
  });

  it('calls forged, never-issued, wrong-type, missing and other-user links invalid, and leaves the real link live', async () => {
    const u = await createUser(server);
    const other = await createUser(server);
    const link = await requestLink(u);
    const tokens = server.container.get<TokenService>(T.TokenService);
    const forged = (await new TokenService('another-secret-key-that-is-long-enough-xyz').sign('reset', u.id, 3600)).token;
    const neverIssued = (await tokens.sign('reset', u.id, 3600)).token;
    const verifyToken = (await tokens.sign('verify', u.id, 3600)).token;
    for (const token of [forged, neverIssued, verifyToken, 'garbage']) expect((await check(token, { access: access(u.id) })).body).toEqual(INVALID);
    expect((await check(null, { access: access(u.id) })).body).toEqual(INVALID);
    expect((await check(link.token, { access: access(other.id) })).body).toEqual(INVALID);
    expect((await check(link.token, { access: link.access })).body).toEqual(LIVE);
  });

  it('answers a malformed body with a readable message', async () => {
    const res = await check('x', {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Access is required.' });
  });
});
