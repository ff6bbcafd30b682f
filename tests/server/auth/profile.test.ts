import signupRoleMap from '../../../schemas/account/signup-role-map.json';
import { createUser, login, startTestServer, type TestServer } from '../../support/server';

const user = (id: number | string) => `/api/platform/users/${id}/`;
const CHANGE = '/api/platform/userChangePassword';

function details(overrides: Record<string, unknown> = {}) {
  return { name: 'Renamed Person', currency: 'EUR', time_zone: '(GMT+01:00) Europe/Paris', role: 11, ...overrides };
}

describe('My Account: profile, update and password change', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  describe('GET /api/platform/users/{userId}/', () => {
    it('returns the profile with the numeric Role of the sign-up role, and never the password hash', async () => {
      const u = await createUser(server, { name: 'Katherine Johnson', role: 'mlops', company: 'NASA' });
      const res = await server.call('GET', user(u.id), { token: u.access });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        Name: 'Katherine Johnson',
        Email: u.email,
        Role: 7,
        Currency: 'USD',
        Time_zone: '(GMT+00:00) UTC',
        Company: { name: 'NASA' },
        Creation_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        status: 'success',
      });
      expect(Math.abs(Date.parse(res.body.Creation_date) - Date.now())).toBeLessThan(60_000);
      expect(JSON.stringify(res.body)).not.toMatch(/argon2|password/i);
    });

    it('maps every sign-up role code to its profile code', async () => {
      const expected: Record<string, number> = { cpo: 6, ds: 4, mlops: 7, devops: 10, dev: 14, pm: 9, bm: 11, sm: 13, other: 14 };
      expect(signupRoleMap.map).toEqual(expected);
      for (const [code, role] of Object.entries(expected)) {
        const u = await createUser(server, { role: code });
        expect((await server.call('GET', user(u.id), { token: u.access })).body.Role).toBe(role);
      }
    });

    it("refuses another user's profile with 403", async () => {
      const a = await createUser(server);
      const b = await createUser(server);
      const res = await server.call('GET', user(b.id), { token: a.access });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ status: 'error', message: 'You can only view or change your own account.' });
    });

    it('answers a non-numeric id with 400, and no token with 401', async () => {
      const a = await createUser(server);
      for (const id of ['abc', '12.5', '-3', '99999999999']) {
        const res = await server.call('GET', user(id), { token: a.access });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ status: 'error', message: 'The user id must be a whole number.' });
      }
      const anonymous = await server.call('GET', user(a.id));
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ status: 'error', status_code: 401 });
    });
  });

  describe('PUT /api/platform/users/{userId}/', () => {
    it('updates name, currency and time zone; the role is accepted but never changes', async () => {
      const u = await createUser(server, { role: 'ds', company: 'Acme' });
      const res = await server.call('PUT', user(u.id), { token: u.access, body: details({ role: 2 }) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', message: 'Your details have been updated.' });
      const profile = (await server.call('GET', user(u.id), { token: u.access })).body;
      expect(profile).toMatchObject({
        Name: 'Renamed Person',
        Currency: 'EUR',
        Time_zone: '(GMT+01:00) Europe/Paris',
        Role: 4,
        Company: { name: 'Acme' },
        Email: u.email,
      });
      const row = await server.db.selectFrom('users').select(['role', 'company_name']).where('id', '=', u.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ role: 'ds', company_name: 'Acme' });
      const me = await server.call('GET', '/api/platform/userId', { token: u.access });
      expect(me.body.time_zone).toBe('(GMT+01:00) Europe/Paris');
    });

    it('changes the e-mail when a different one is sent (stored lower-case), tells the old address, and logs in with the new one', async () => {
      const u = await createUser(server);
      // issue 7, item 2: the change needs the current password and is confirmed from the new address
      const res = await server.call('PUT', user(u.id), { token: u.access, body: { ...details({ email: 'New.Address@Example.com' }), password: u.password } });
      expect(res.status).toBe(200);
      const notice = await server.mailer.waitFor(u.email);
      expect(notice.subject).toBe('Your Flowmatic e-mail address was changed');
      expect(notice.text).toContain('new.address@example.com');
      const confirmLink = new URL(/http\S+\/email-change\/confirm\S+/.exec((await server.mailer.waitFor('new.address@example.com')).text)![0]);
      const confirmed = await server.app.inject({
        method: 'POST',
        url: confirmLink.pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `token=${encodeURIComponent(confirmLink.searchParams.get('token')!)}`,
      });
      expect(confirmed.statusCode).toBe(200);
      const profile = (await server.call('GET', user(u.id), { token: u.access })).body;
      expect(profile.Email).toBe('new.address@example.com');
      await login(server, 'new.address@example.com', u.password);
      await expect(login(server, u.email, u.password)).rejects.toThrow(/401/);
    });

    it('leaves the e-mail alone when the same one is sent, in any case', async () => {
      const u = await createUser(server);
      const res = await server.call('PUT', user(u.id), { token: u.access, body: details({ email: u.email.toUpperCase() }) });
      expect(res.status).toBe(200);
      expect((await server.call('GET', user(u.id), { token: u.access })).body.Email).toBe(u.email);
      await new Promise((r) => setTimeout(r, 50));
      expect(server.mailer.sent.some((m) => m.to === u.email)).toBe(false);
    });

    it('refuses an e-mail that another account has, with status error', async () => {
      const a = await createUser(server);
      const b = await createUser(server);
      const res = await server.call('PUT', user(a.id), { token: a.access, body: details({ email: b.email.toUpperCase() }) });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ status: 'error', message: 'An account with this email already exists.' });
      expect((await server.call('GET', user(a.id), { token: a.access })).body).toMatchObject({ Email: a.email, Name: expect.not.stringMatching('Renamed') });
    });

    it("refuses to update another user's account", async () => {
      const a = await createUser(server);
      const b = await createUser(server, { name: 'Untouched' });
      const res = await server.call('PUT', user(b.id), { token: a.access, body: details({ email: 'stolen@example.com' }) });
      expect(res.status).toBe(403);
      expect(res.body.status).toBe('error');
      const row = await server.db.selectFrom('users').select(['name', 'email']).where('id', '=', b.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ name: 'Untouched', email: b.email });
    });

    it.each([
      ['a missing currency', { currency: undefined }, 'Currency is required.'],
      ['an unknown currency', { currency: 'BTC' }, 'Currency must be one of the listed options.'],
      ['an unknown time zone', { time_zone: 'Mars/Olympus' }, 'Time_zone must be one of the listed options.'],
      ['an unknown role code', { role: 5 }, 'Role must be one of the listed options.'],
      ['a malformed e-mail', { email: 'nope' }, 'Email must be a valid e-mail address.'],
      ['a blank name', { name: '  ' }, 'Name must not be empty.'],
      ['a read-only field', { company: 'Evil Corp' }, '"company" is not an accepted field.'],
      ['an attempt to verify oneself', { is_verified: true }, '"is_verified" is not an accepted field.'],
    ])('rejects %s with 400', async (_what, change, message) => {
      const u = await createUser(server);
      const body: Record<string, unknown> = details(change);
      for (const [k, v] of Object.entries(change)) if (v === undefined) delete body[k];
      const res = await server.call('PUT', user(u.id), { token: u.access, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message });
    });
  });

  describe('POST /api/platform/userChangePassword', () => {
    it('changes the password when the current one is right', async () => {
      const u = await createUser(server);
      const res = await server.call('POST', CHANGE, { token: u.access, body: { password: u.password, newpassword: 'my new password' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', message: 'Your password has been changed.', access: expect.any(String), refresh: expect.any(String) });
      await login(server, u.email, 'my new password');
      await expect(login(server, u.email, u.password)).rejects.toThrow(/401/);
    });

    it('signs every other session out, and hands this one a fresh token pair', async () => {
      const u = await createUser(server);
      const other = await login(server, u.email, u.password); // e.g. a stolen session elsewhere
      const res = await server.call('POST', CHANGE, { token: u.access, body: { password: u.password, newpassword: 'my new password' } });
      expect(res.status).toBe(200);
      for (const token of [u.access, other.access]) {
        const r = await server.call('GET', '/api/platform/userId', { token });
        expect(r).toMatchObject({ status: 401, body: { code: 'token_not_valid', status_code: 401 } });
      }
      for (const refresh of [u.refresh, other.refresh]) {
        const r = await server.call('POST', '/api/platform/api-jwt-token-refresh/', { body: { refresh } });
        expect(r).toMatchObject({ status: 401, body: { code: 'token_not_valid' } });
      }
      expect((await server.call('GET', '/api/platform/userId', { token: res.body.access })).status).toBe(200);
      const refreshed = await server.call('POST', '/api/platform/api-jwt-token-refresh/', { body: { refresh: res.body.refresh } });
      expect(refreshed.status).toBe(200);
      expect((await server.call('GET', '/api/platform/userId', { token: refreshed.body.access })).status).toBe(200);
    });

    it('refuses a wrong current password, and keeps the old one', async () => {
      const u = await createUser(server);
      const res = await server.call('POST', CHANGE, { token: u.access, body: { password: 'not my password', newpassword: 'my new password' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: 'Your current password is incorrect.' });
      await login(server, u.email, u.password);
    });

    it('validates the body and needs a signed-in, verified user', async () => {
      const u = await createUser(server);
      const short = await server.call('POST', CHANGE, { token: u.access, body: { password: u.password, newpassword: 'short' } });
      expect(short.status).toBe(400);
      expect(short.body).toEqual({ status: 'error', message: 'Passwords must be at least 8 characters long.' });
      const missing = await server.call('POST', CHANGE, { token: u.access, body: { newpassword: 'long enough password' } });
      expect(missing.body).toEqual({ status: 'error', message: 'Current password is required.' });
      expect((await server.call('POST', CHANGE, { body: { password: u.password, newpassword: 'long enough' } })).status).toBe(401);
      const unverified = await createUser(server, { verified: false });
      const res = await server.call('POST', CHANGE, { token: unverified.access, body: { password: unverified.password, newpassword: 'long enough' } });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Please verify your account, then login.');
    });
  });
});
