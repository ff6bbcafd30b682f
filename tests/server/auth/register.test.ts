import { TokenService, VERIFY_TTL_SECONDS } from '../../../src/server/auth/token-service';
import { sql } from 'kysely';
import * as T from '../../../src/server/tokens';
import { createUser, linkIn, login, registerUser, startTestServer, type TestServer } from '../../support/server';

const REGISTER = '/api/platform/register';
const VERIFY = '/api/platform/emailVerify';
const CREATED = 'Account created. Check your email to verify your account.';
const VERIFY_FAILED = 'Account verification failed, please try again.';

function signup(overrides: Record<string, unknown> = {}) {
  const email = `new-${Math.random().toString(36).slice(2, 8)}@example.com`;
  return {
    name: 'Ada Lovelace',
    username: email,
    email,
    role: 'cpo',
    company: 'Analytical Engines',
    password: 'a long enough password',
    accept_terms: true,
    ...overrides,
  };
}

function verify(server: TestServer, email: string | null, token: string | null, scheme = 'Token') {
  return server.call('POST', VERIFY, { body: { email }, headers: token === null ? {} : { authorization: `${scheme} ${token}` } });
}

describe('registration and e-mail verification', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  describe('POST /api/platform/register', () => {
    it('creates an unverified user with its managed user, hashed password, and queues a verification e-mail', async () => {
      const body = signup({ email: 'Ada.Lovelace@Example.com', username: 'ada.lovelace@example.com' });
      const res = await server.call('POST', REGISTER, { body });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', id: expect.any(Number), message: CREATED });

      const user = await server.db.selectFrom('users').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(user).toMatchObject({
        name: 'Ada Lovelace',
        email: 'ada.lovelace@example.com',
        role: 'cpo',
        company_name: 'Analytical Engines',
        is_verified: false,
      });
      expect(user.password_hash).toMatch(/^\$argon2id\$/);
      expect(user.password_hash).not.toContain(body.password);
      const managed = await server.db.selectFrom('managed_users').selectAll().where('user_id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(managed.id).toBeGreaterThan(100000);
      expect(managed.external_id).toMatch(/^flowmatic-[0-9a-f-]{36}$/);

      const mail = await server.mailer.waitFor('ada.lovelace@example.com');
      expect(mail.subject).toBe('Verify your Flowmatic account');
      expect(mail.text).toContain('Hi Ada,');
      expect(mail.text).toContain('Flowmatic');
      expect(mail.html).toContain('href="http://localhost:3000/login?verify=true&amp;email=');
      const link = linkIn(server, mail);
      expect(link.origin + link.pathname).toBe('http://localhost:3000/login');
      expect(link.searchParams.get('verify')).toBe('true');
      expect(link.searchParams.get('email')).toBe('ada.lovelace@example.com');
      const token = link.searchParams.get('token')!;
      const claims = await server.container.get<TokenService>(T.TokenService).verify(token, 'verify');
      expect(claims.userId).toBe(res.body.id);
      expect(claims.exp - claims.iat).toBe(VERIFY_TTL_SECONDS);
      const recorded = await server.db.selectFrom('one_time_tokens').selectAll().where('jti', '=', claims.jti).executeTakeFirstOrThrow();
      expect(recorded).toMatchObject({ user_id: res.body.id, purpose: 'verify', used_at: null });
    });

    it('refuses a second account for the same e-mail address, whatever its case', async () => {
      const first = signup();
      expect((await server.call('POST', REGISTER, { body: first })).status).toBe(200);
      const upper = first.email.toUpperCase();
      const res = await server.call('POST', REGISTER, { body: signup({ email: upper, username: upper }) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: 'An account with this email already exists.' });
      const count = await server.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('email', '=', first.email)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    });

    it('creates neither the user nor the managed user when one insert fails (one transaction)', async () => {
      // make the managed-user insert fail, after the user insert has succeeded
      await sql`alter table managed_users add constraint no_new_managed_users check (user_id < 0) not valid`.execute(server.db);
      try {
        const body = signup();
        const res = await server.call('POST', REGISTER, { body });
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ status: 'error', message: 'Something went wrong on our side. Please try again.' });
        expect(await server.db.selectFrom('users').select('id').where('email', '=', body.email).execute()).toEqual([]);
        expect(server.mailer.sent.some((m) => m.to === body.email)).toBe(false);
      } finally {
        await sql`alter table managed_users drop constraint no_new_managed_users`.execute(server.db);
      }
    });

    it('stores the company the client sends for an empty one ("Unknown")', async () => {
      const res = await server.call('POST', REGISTER, { body: signup({ company: 'Unknown' }) });
      expect(res.status).toBe(200);
      const user = await server.db.selectFrom('users').select('company_name').where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(user.company_name).toBe('Unknown');
    });

    it.each([
      ['a missing name', { name: undefined }, 'Name is required.'],
      ['a blank name', { name: '   ' }, 'Please fill out all fields'],
      ['a malformed e-mail', { email: 'not-an-email', username: 'not-an-email' }, 'Email must be a valid e-mail address.'],
      ['a username different from the e-mail', { username: 'someone.else@example.com' }, 'The username must be the same as the email address.'],
      ['an unknown role', { role: 'ceo' }, 'Your Role must be one of the listed options.'],
      ['no role', { role: undefined }, 'Your Role is required.'],
      ['an empty company', { company: '' }, 'Company Name must not be empty.'],
      ['a short password', { password: 'short' }, 'Passwords must be at least 8 characters long.'],
      ['terms not accepted', { accept_terms: false }, 'Please tick "I agree to the Terms and Conditions".'],
      ['an extra field', { is_verified: true }, '"is_verified" is not an accepted field.'],
    ])('rejects %s with 400 and one sentence', async (_what, change, message) => {
      const body: Record<string, unknown> = signup(change);
      for (const [k, v] of Object.entries(change)) if (v === undefined) delete body[k];
      const res = await server.call('POST', REGISTER, { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message });
      const users = await server.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', String(body.email ?? '').toLowerCase())
        .execute();
      expect(users).toEqual([]);
    });
  });

  describe('POST /api/platform/emailVerify', () => {
    it('end to end: register, follow the e-mailed link, log in, userId says is_verify true', async () => {
      const u = await registerUser(server);
      const before = await login(server, u.email, u.password);
      expect((await server.call('GET', '/api/platform/userId', { token: before.access })).body.is_verify).toBe(false);
      // an unverified user cannot use the rest of the API
      expect((await server.call('GET', `/api/platform/users/${u.id}/`, { token: before.access })).status).toBe(401);

      const res = await verify(server, u.verifyLink.searchParams.get('email'), u.verifyLink.searchParams.get('token'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', message: 'Account verified, please login.' });

      const tokens = await login(server, u.email, u.password);
      const me = await server.call('GET', '/api/platform/userId', { token: tokens.access });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ userID: u.id, is_verify: true, email: u.email });
      expect(me.body.workato_id).toBeGreaterThan(100000);
      expect((await server.call('GET', `/api/platform/users/${u.id}/`, { token: tokens.access })).status).toBe(200);
    });

    it('refuses a link used twice', async () => {
      const u = await registerUser(server);
      const token = u.verifyLink.searchParams.get('token');
      expect((await verify(server, u.email, token)).status).toBe(200);
      const again = await verify(server, u.email, token);
      expect(again.status).toBe(401);
      expect(again.body).toEqual({ status: 'error', message: VERIFY_FAILED });
    });

    it('lets only one of two simultaneous uses of a link through', async () => {
      const u = await registerUser(server);
      const token = u.verifyLink.searchParams.get('token');
      const results = await Promise.all([verify(server, u.email, token), verify(server, u.email, token), verify(server, u.email, token)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    });

    it('refuses a token for another e-mail address, and does not use it up', async () => {
      const u = await registerUser(server);
      const other = await createUser(server, { verified: false });
      const token = u.verifyLink.searchParams.get('token');
      const res = await verify(server, other.email, token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: VERIFY_FAILED });
      const otherRow = await server.db.selectFrom('users').select('is_verified').where('id', '=', other.id).executeTakeFirstOrThrow();
      expect(otherRow.is_verified).toBe(false);
      expect((await verify(server, u.email.toUpperCase(), token)).status).toBe(200);
    });

    it('refuses forged, expired, never-issued, wrong-type and missing tokens', async () => {
      const u = await registerUser(server);
      const tokens = server.container.get<TokenService>(T.TokenService);
      const forged = (await new TokenService('another-secret-key-that-is-long-enough-xyz').sign('verify', u.id, 3600)).token;
      const expired = (await new TokenService(server.config.secretKey, () => Date.now() - 4 * 24 * 3600_000).sign('verify', u.id, VERIFY_TTL_SECONDS)).token;
      const neverIssued = (await tokens.sign('verify', u.id, 3600)).token; // signed, but not recorded
      const access = (await tokens.sign('access', u.id, 300)).token;
      const reset = (await tokens.sign('reset', u.id, 300)).token;
      for (const token of [forged, expired, neverIssued, access, reset, 'garbage']) {
        const res = await verify(server, u.email, token);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ status: 'error', message: VERIFY_FAILED });
      }
      expect((await verify(server, u.email, null)).status).toBe(401);
      // the bearer scheme is not the e-mailed link's
      expect((await verify(server, u.email, u.verifyLink.searchParams.get('token'), 'Bearer')).status).toBe(401);
      const row = await server.db.selectFrom('users').select('is_verified').where('id', '=', u.id).executeTakeFirstOrThrow();
      expect(row.is_verified).toBe(false);
      // the real link still works afterwards
      expect((await verify(server, u.email, u.verifyLink.searchParams.get('token'))).status).toBe(200);
    });

    it('accepts a fresh valid token for an account that is already verified', async () => {
      const u = await registerUser(server);
      await server.db.updateTable('users').set({ is_verified: true }).where('id', '=', u.id).execute();
      const res = await verify(server, u.email, u.verifyLink.searchParams.get('token'));
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('success');
    });

    it('rejects a malformed body', async () => {
      const u = await registerUser(server);
      const token = u.verifyLink.searchParams.get('token');
      const bad = await verify(server, 'not-an-email', token);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ status: 'error', message: 'Email must be a valid e-mail address.' });
      const none = await server.call('POST', VERIFY, { body: {}, headers: { authorization: `Token ${token}` } });
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ status: 'error', message: 'Email is required.' });
    });
  });
});
