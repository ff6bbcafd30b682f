import { EventBus } from '../../../src/core/event-bus';
import { ApiClient } from '../../../src/app/services/api-client';
import { ApiError, Http } from '../../../src/app/services/http';
import { NOT_VERIFIED, Session, WRONG_CREDENTIALS, tokenExpiry } from '../../../src/app/services/session';
import { MemoryStorage } from '../../../src/app/services/storage';
import { fakeFetch, fakeJwt } from '../../support/fake-fetch';

function setup(routes: Parameters<typeof fakeFetch>[0], now = 1_800_000_000_000) {
  const fetch = fakeFetch(routes);
  const storage = new MemoryStorage();
  const bus = new EventBus();
  const nav = { assign: jest.fn(), reload: jest.fn() };
  const clock = { now };
  const http = new Http({ apiBase: '' }, fetch);
  const session = new Session(http, storage, bus, nav, () => clock.now);
  const api = new ApiClient(http, session);
  return { fetch, storage, bus, nav, session, api, clock };
}

const NOW_S = 1_800_000_000;
const access = fakeJwt(NOW_S + 300);
const who = { userID: 1001, workato_id: 100001, is_verify: true, time_zone: '(GMT+01:00) Europe/Paris', email: 'a@b.co' };

describe('Session.login (spec section 4, Login)', () => {
  it('stores the auth record, token, isAuth, userId, workatoId and time_zone for a verified user', async () => {
    const { session, storage, fetch, bus } = setup({
      'POST /api/platform/api-jwt-token/': { body: { access, refresh: 'r1' } },
      'GET /api/platform/userId': { body: who },
    });
    const started = jest.fn();
    bus.on('session/started').subscribe(started);
    await expect(session.login('a@b.co', 'pw')).resolves.toEqual({ ok: true });
    expect(JSON.parse(storage.getItem('auth')!)).toEqual({ expire: (NOW_S + 300) * 1000, token: access, refresh_token: 'r1' });
    expect(storage.getItem('token')).toBe(access);
    expect(storage.getItem('isAuth')).toBe('true');
    expect(storage.getItem('userId')).toBe('1001');
    expect(storage.getItem('workatoId')).toBe('100001');
    expect(storage.getItem('time_zone')).toBe('(GMT+01:00) Europe/Paris');
    expect(fetch.calls[0].body).toEqual({ username: 'a@b.co', password: 'pw' });
    expect(fetch.calls[1].headers.Authorization).toBe(`Bearer ${access}`);
    expect(session.isAuth).toBe(true);
    expect(started).toHaveBeenCalledWith({ userId: 1001 });
  });

  it("says 'Wrong email or password.' when the reply has no access token", async () => {
    const { session, storage } = setup({ 'POST /api/platform/api-jwt-token/': { status: 401, body: { detail: 'No active account' } } });
    await expect(session.login('a@b.co', 'bad')).resolves.toEqual({ ok: false, message: WRONG_CREDENTIALS });
    expect(storage.getItem('isAuth')).toBeNull();
  });

  it("clears storage and says 'Please verify your account, then login.' for an unverified user", async () => {
    const { session, storage } = setup({
      'POST /api/platform/api-jwt-token/': { body: { access, refresh: 'r1' } },
      'GET /api/platform/userId': { body: { ...who, is_verify: false } },
    });
    await expect(session.login('a@b.co', 'pw')).resolves.toEqual({ ok: false, message: NOT_VERIFIED });
    expect(storage.getItem('isAuth')).toBeNull();
    expect(storage.getItem('auth')).toBeNull();
  });

  it('reports an unreachable server instead of a wrong password', async () => {
    const { session } = setup({ 'POST /api/platform/api-jwt-token/': () => Promise.reject(new TypeError('Failed to fetch')) });
    const r = await session.login('a@b.co', 'pw');
    expect(r).toEqual({ ok: false, message: expect.stringContaining('Could not reach the server') });
  });

  it('shows the rate-limit message when too many attempts are made', async () => {
    const { session } = setup({
      'POST /api/platform/api-jwt-token/': { status: 429, body: { status: 'error', message: 'Too many attempts. Please wait a minute and try again.' } },
    });
    await expect(session.login('a@b.co', 'pw')).resolves.toEqual({ ok: false, message: 'Too many attempts. Please wait a minute and try again.' });
  });
});

describe('tokens and refresh (spec section 4, Session)', () => {
  function loggedIn(routes: Parameters<typeof fakeFetch>[0], expire: number) {
    const s = setup(routes);
    s.storage.setItem('auth', JSON.stringify({ expire, token: 'old-token', refresh_token: 'r1' }));
    s.storage.setItem('isAuth', 'true');
    s.storage.setItem('userId', '1001');
    return s;
  }

  it('reads the expiry from the token itself', () => {
    expect(tokenExpiry(fakeJwt(123))).toBe(123_000);
    expect(tokenExpiry('not-a-jwt')).toBeUndefined();
  });

  it('uses the stored token while it is valid', async () => {
    const { api, fetch } = loggedIn({ 'GET /api/platform/solutions': { body: [] } }, 1_800_000_000_000 + 60_000);
    await api.get('/api/platform/solutions');
    expect(fetch.calls.map((c) => c.path)).toEqual(['/api/platform/solutions']);
    expect(fetch.calls[0].headers.Authorization).toBe('Bearer old-token');
  });

  it('refreshes silently before expiry, once for concurrent calls, and stores the new token', async () => {
    const fresh = fakeJwt(NOW_S + 300);
    const { api, fetch, storage } = loggedIn(
      { 'POST /api/platform/api-jwt-token-refresh/': { body: { access: fresh } }, 'GET /api/platform/solutions': { body: [] } },
      1_800_000_000_000 + 5_000,
    );
    await Promise.all([api.get('/api/platform/solutions'), api.get('/api/platform/solutions')]);
    expect(fetch.calls.filter((c) => c.path.includes('refresh'))).toHaveLength(1);
    expect(fetch.calls.find((c) => c.path.includes('refresh'))!.body).toEqual({ refresh: 'r1' });
    expect(fetch.calls.filter((c) => c.path === '/api/platform/solutions').every((c) => c.headers.Authorization === `Bearer ${fresh}`)).toBe(true);
    expect(JSON.parse(storage.getItem('auth')!)).toMatchObject({ token: fresh, refresh_token: 'r1', expire: (NOW_S + 300) * 1000 });
  });

  it("on refresh failure clears storage and goes to /login with a reload ('Issue getting new token')", async () => {
    const { api, nav, storage, bus } = loggedIn(
      { 'POST /api/platform/api-jwt-token-refresh/': { status: 401, body: { detail: 'Token is invalid or expired', code: 'token_not_valid' } } },
      1_800_000_000_000 - 1,
    );
    const expired = jest.fn();
    bus.on('session/expired').subscribe(expired);
    await expect(api.get('/api/platform/solutions')).rejects.toThrow('Issue getting new token');
    expect(storage.getItem('isAuth')).toBeNull();
    expect(storage.getItem('auth')).toBeNull();
    expect(nav.assign).toHaveBeenCalledWith('/login');
    expect(expired).toHaveBeenCalledWith({ reason: 'refresh-failed' });
  });

  it('ends the session on an HTTP 401 reply', async () => {
    const { api, nav, storage } = loggedIn({ 'GET /api/platform/solutions': { status: 401, body: { detail: 'nope' } } }, 1_800_000_000_000 + 60_000);
    await expect(api.get('/api/platform/solutions')).rejects.toBeInstanceOf(ApiError);
    expect(storage.getItem('isAuth')).toBeNull();
    expect(nav.assign).toHaveBeenCalledWith('/login');
  });

  it('ends the session on a 200 reply carrying status_code 401', async () => {
    const { api, nav } = loggedIn({ 'GET /api/platform/solutions': { status: 200, body: { status_code: 401 } } }, 1_800_000_000_000 + 60_000);
    await expect(api.get('/api/platform/solutions')).rejects.toBeInstanceOf(ApiError);
    expect(nav.assign).toHaveBeenCalledWith('/login');
  });

  it('does not end the session for a 401 on an unauthenticated call', async () => {
    const { api, nav, storage } = loggedIn(
      { 'POST /api/platform/emailVerify': { status: 401, body: { status: 'error', message: 'Account verification failed, please try again.' } } },
      1_800_000_000_000 + 60_000,
    );
    await expect(api.post('/api/platform/emailVerify', { email: 'a@b.co' }, { auth: false })).rejects.toThrow('Account verification failed, please try again.');
    expect(nav.assign).not.toHaveBeenCalled();
    expect(storage.getItem('isAuth')).toBe('true');
  });

  it('throws the server message for other errors and keeps the session', async () => {
    const { api, nav } = loggedIn(
      { 'GET /api/platform/combination/x/': { status: 400, body: { status: 'error', message: 'id must be a number' } } },
      1_800_000_000_000 + 60_000,
    );
    await expect(api.get('/api/platform/combination/x/')).rejects.toThrow('id must be a number');
    expect(nav.assign).not.toHaveBeenCalled();
  });

  it('a call without a session goes to /login', async () => {
    const { api, nav } = setup({});
    await expect(api.get('/api/platform/solutions')).rejects.toThrow('session has expired');
    expect(nav.assign).toHaveBeenCalledWith('/login');
  });

  it('logout clears storage and goes to /login', () => {
    const { session, nav, storage } = loggedIn({}, 0);
    session.logout();
    expect(storage.getItem('isAuth')).toBeNull();
    expect(nav.assign).toHaveBeenCalledWith('/login');
    expect(session.state$.value).toEqual({ isAuth: false, userId: null });
  });
});
