jest.mock('oauth4webapi', () => jest.requireActual('./native-oauth4webapi').loadOAuth4WebApi());
import { sql } from 'kysely';
import { startTestServer, createUser, type TestServer, type TestUser } from '../../support/server';
import { createConnectorsPlugin } from '../../../plugins/connectors/server';
import { Connections, NotConnectedError } from '../../../src/server/connections';
import { confirm, connect, consent, deliver, widgetToken } from './connect-flow';

describe('connections: OAuth with PKCE against the sandbox providers', () => {
  let server: TestServer;
  const plugin = createConnectorsPlugin();
  let alice: TestUser;
  let bob: TestUser;
  let aliceToken: string;
  let bobToken: string;
  const sandbox = () => plugin.sandbox()!;
  const list = async (token: string) => (await server.call('GET', '/api/connections', { headers: { authorization: `Bearer ${token}` } })).body.result as any[];
  const byProvider = async (token: string, provider: string) => (await list(token)).find((c) => c.provider === provider);

  beforeAll(async () => {
    server = await startTestServer({ plugins: [plugin], env: { SANDBOX_PROVIDERS: 'true' } });
    alice = await createUser(server);
    bob = await createUser(server);
    aliceToken = await widgetToken(server, alice);
    bobToken = await widgetToken(server, bob);
  });
  afterAll(() => server.close());
  afterEach(() => {
    sandbox().accessTtlSeconds = 3600;
  });

  it('lists every connectable provider, sorted by name, not connected, labelled sandbox', async () => {
    const result = await list(aliceToken);
    expect(result.map((c) => [c.provider, c.name, c.authorization_status, c.sandbox])).toEqual([
      ['google_drive', 'Google Drive', null, true],
      ['google_sheets', 'Google Sheets', null, true],
      ['xero', 'Xero', null, true],
    ]);
    const proxy = await server.call('GET', `/api/platform/proxy?url=api/managed_users/${alice.workatoId}/connections`, { token: alice.access });
    expect(proxy.body.result.map((c: any) => [c.provider, c.authorization_status])).toEqual([
      ['google_drive', null],
      ['google_sheets', null],
      ['xero', null],
    ]);
  });

  it('refuses the widget API without a widget token, or with a session token', async () => {
    expect((await server.call('GET', '/api/connections')).status).toBe(401);
    expect((await server.call('GET', '/api/connections', { headers: { authorization: `Bearer ${alice.access}` } })).status).toBe(401);
    expect((await server.call('GET', `/api/connections/connect/google_drive?token=${alice.access}`)).status).toBe(401);
  });

  it('connects Google Drive: cookie-bound state, PKCE verifier checked, account name shown, proxy says success', async () => {
    const done = await connect(server, aliceToken, 'google_drive', 'alice@example.com');
    expect(Object.fromEntries(done)).toEqual({ provider: 'google_drive', result: 'connected', account: 'alice@example.com' });
    const drive = await byProvider(aliceToken, 'google_drive');
    expect(drive).toMatchObject({ authorization_status: 'success', account_name: 'alice@example.com', lost_reason: null });
    const proxy = await server.call('GET', `/api/platform/proxy?url=api/managed_users/${alice.workatoId}/connections`, { token: alice.access });
    expect(proxy.body.result.find((c: any) => c.provider === 'google_drive').authorization_status).toBe('success');
    // bob sees none of it
    expect((await byProvider(bobToken, 'google_drive')).authorization_status).toBeNull();
  });

  it('sets the Connect cookie HttpOnly, SameSite=Lax, scoped to the callback, short-lived', async () => {
    const start = await server.call('GET', `/api/connections/connect/xero?token=${aliceToken}`);
    const cookie = ([] as string[]).concat(start.headers['set-cookie'] as string).find((c) => c.startsWith('fm_connect='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/api\/connections;/);
    expect(cookie).toMatch(/Max-Age=600/);
    const location = new URL(String(start.headers.location));
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/connections/callback');
  });

  it("refuses a forged state, a missing cookie, another browser's cookie, and a replayed callback", async () => {
    const steps = await consent(server, bobToken, 'google_sheets', { account: 'bob@example.com' });
    const forged = new URL(steps.callback.href);
    forged.searchParams.set('state', 'forged-state-value');
    let done = await deliver(server, forged, steps.cookie, steps.session);
    expect(Object.fromEntries(done)).toEqual({ result: 'error', reason: 'state_mismatch' });
    // the pending Connect was used up by the forged attempt: the genuine redirect is refused too
    done = await deliver(server, steps.callback, steps.cookie, steps.session);
    expect(Object.fromEntries(done)).toEqual({ result: 'error', reason: 'not_started' });

    const again = await consent(server, bobToken, 'google_sheets', { account: 'bob@example.com' });
    expect(Object.fromEntries(await deliver(server, again.callback, undefined, again.session))).toEqual({ result: 'error', reason: 'not_started' });
    const other = await consent(server, aliceToken, 'google_sheets');
    // bob's redirect delivered with alice's cookie: the state belongs to another Connect
    expect((await deliver(server, again.callback, other.cookie, other.session)).get('reason')).toBe('state_mismatch');
    // confirming without a parked answer (no callback yet, or used) is refused, and a replay too
    const third = await consent(server, bobToken, 'google_sheets', { account: 'bob@example.com' });
    expect((await confirm(server, third.cookie, third.session)).body).toMatchObject({ status: 'error', reason: 'not_started' });
    expect((await deliver(server, third.callback, third.cookie, third.session)).get('result')).toBe('connected');
    expect((await confirm(server, third.cookie, third.session)).body).toMatchObject({ status: 'error', reason: 'not_started' });
    expect((await deliver(server, third.callback, third.cookie, third.session)).get('reason')).toBe('not_started');
    await server.call('POST', `/api/connections/${(await byProvider(bobToken, 'google_sheets')).id}/disconnect`, {
      headers: { authorization: `Bearer ${bobToken}` },
    });
    expect((await byProvider(bobToken, 'google_sheets')).authorization_status).toBeNull();
  });

  it('a denied consent leaves the connection not connected with the reason', async () => {
    const steps = await consent(server, bobToken, 'xero', { decision: 'deny' });
    const done = await deliver(server, steps.callback, steps.cookie, steps.session);
    expect(done.get('result')).toBe('error');
    expect(done.get('message')).toMatch(/Xero could not be connected\. The provider refused access: access_denied/);
  });

  it('the sandbox refuses a code redeemed with the wrong PKCE verifier', async () => {
    const start = await server.call('GET', `/api/connections/connect/google_drive?token=${bobToken}`);
    const authorize = new URL(String(start.headers.location));
    const form = new URLSearchParams();
    for (const k of ['client_id', 'redirect_uri', 'state', 'code_challenge', 'scope']) form.set(k, authorize.searchParams.get(k) ?? '');
    form.set('account', 'x@example.com');
    form.set('decision', 'allow');
    const decided = await fetch(`${authorize.origin}${authorize.pathname}/decision`, { method: 'POST', body: form, redirect: 'manual' });
    const code = new URL(decided.headers.get('location')!).searchParams.get('code')!;
    const token = await fetch(`${authorize.origin}/google/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: authorize.searchParams.get('redirect_uri')!,
        code_verifier: 'a'.repeat(43),
        ...(sandbox().clients.google && { client_id: sandbox().clients.google.clientId, client_secret: sandbox().clients.google.clientSecret }),
      }),
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier/) });
  });

  it('keeps tokens unreadable in the database (sealed, bound to their row)', async () => {
    const issued = Object.keys(sandbox().state.read().access).concat(Object.keys(sandbox().state.read().refresh));
    expect(issued.length).toBeGreaterThan(0);
    const { rows } = await sql<Record<string, unknown>>`select * from connection_credentials`.execute(server.db);
    const pending = await sql<Record<string, unknown>>`select * from oauth_pending`.execute(server.db);
    const dump = JSON.stringify([rows, pending.rows]);
    for (const t of issued) expect(dump).not.toContain(t);
    for (const r of rows) expect(String(r.secret)).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    // a sealed secret moved to another connection row does not open
    const service = server.container.get(Connections);
    const drive = await byProvider(aliceToken, 'google_drive');
    const other = await server.db
      .insertInto('connections')
      .values({ managed_user_id: bob.workatoId, provider: 'decoy', name: 'Decoy', authorization_status: 'success' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sealed = rows.find((r) => r.connection_id === drive.id)!.secret as string;
    const cipher = (service as any).deps.cipher;
    expect(() => cipher.open(sealed, `connection:${other.id}`)).toThrow(/integrity check/);
    expect(JSON.parse(cipher.open(sealed, `connection:${drive.id}`)).a).toMatch(/^ya29\.sandbox\./);
  });

  it("refuses another user's connection id on Disconnect (404) and leaves it connected", async () => {
    const drive = await byProvider(aliceToken, 'google_drive');
    const res = await server.call('POST', `/api/connections/${drive.id}/disconnect`, { headers: { authorization: `Bearer ${bobToken}` } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', message: 'Connection not found.' });
    expect((await byProvider(aliceToken, 'google_drive')).authorization_status).toBe('success');
    await expect(server.container.get(Connections).accessToken(bob.workatoId, 'google_drive')).rejects.toBeInstanceOf(NotConnectedError);
  });

  it('refreshes an access token before it expires (Google: same refresh token)', async () => {
    const service = server.container.get(Connections);
    const first = await service.accessToken(alice.workatoId, 'google_drive');
    expect(await service.accessToken(alice.workatoId, 'google_drive')).toEqual(first); // still fresh: no refresh
    // tokens that live 30 s are inside the 60 s refresh window: the next read refreshes
    sandbox().accessTtlSeconds = 30;
    await connect(server, aliceToken, 'google_drive', 'alice@example.com');
    const short = await service.accessToken(alice.workatoId, 'google_drive');
    const refreshed = await service.accessToken(alice.workatoId, 'google_drive');
    expect(refreshed.token).not.toBe(short.token);
    expect(sandbox().state.read().access[refreshed.token]).toMatchObject({ provider: 'google', account: 'alice@example.com' });
  });

  it("stores Xero's rotating refresh token atomically: each refresh uses the last one, concurrent reads refresh once", async () => {
    sandbox().accessTtlSeconds = 30;
    const done = await connect(server, aliceToken, 'xero', 'Alice Trading Ltd');
    expect(done.get('account')).toBe('Alice Trading Ltd');
    const service = server.container.get(Connections);
    const refreshTokens = () =>
      Object.entries(sandbox().state.read().refresh)
        .filter(([, v]) => v.provider === 'xero' && v.account === 'Alice Trading Ltd')
        .map(([k]) => k);
    const original = refreshTokens();
    expect(original).toHaveLength(1);
    const [a, b] = await Promise.all([service.accessToken(alice.workatoId, 'xero'), service.accessToken(alice.workatoId, 'xero')]);
    expect(a.token).toBe(b.token); // one refresh for both readers
    expect(a.accountId).toMatch(/^tenant-/);
    const rotated = refreshTokens();
    expect(rotated).toHaveLength(1);
    expect(rotated[0]).not.toBe(original[0]);
    // the rotated token was stored: a second refresh succeeds with it
    const c = await service.accessToken(alice.workatoId, 'xero');
    expect(c.token).not.toBe(a.token);
    expect(refreshTokens()).toHaveLength(1);
  });

  it('marks a connection lost with its reason when the refresh is refused; the screens show it not connected', async () => {
    sandbox().accessTtlSeconds = 30;
    await connect(server, bobToken, 'google_sheets', 'bob@example.com');
    sandbox().oauth.revokeAccount('google', 'bob@example.com');
    const service = server.container.get(Connections);
    await expect(service.accessToken(bob.workatoId, 'google_sheets')).rejects.toThrow(
      /Google Sheets is not connected \(The provider refused the token refresh: invalid_grant/,
    );
    const sheets = await byProvider(bobToken, 'google_sheets');
    expect(sheets).toMatchObject({ authorization_status: null, account_name: null, lost_reason: expect.stringMatching(/invalid_grant/) });
    const proxy = await server.call('GET', `/api/platform/proxy?url=api/managed_users/${bob.workatoId}/connections`, { token: bob.access });
    expect(proxy.body.result.find((c: any) => c.provider === 'google_sheets').authorization_status).toBeNull();
    const { rows } = await sql<{
      secret: string | null;
    }>`select k.secret from connection_credentials k join connections c on c.id = k.connection_id where c.id = ${sheets.id}`.execute(server.db);
    expect(rows[0].secret).toBeNull();
  });

  it('revokes at the provider on Disconnect and forgets the tokens', async () => {
    const xero = await byProvider(aliceToken, 'xero');
    expect(xero.authorization_status).toBe('success');
    const res = await server.call('POST', `/api/connections/${xero.id}/disconnect`, { headers: { authorization: `Bearer ${aliceToken}` } });
    expect(res.body).toEqual({ status: 'success', revoked: true });
    const left = Object.values(sandbox().state.read().refresh)
      .concat(Object.values(sandbox().state.read().access))
      .filter((v) => v.provider === 'xero' && v.account === 'Alice Trading Ltd');
    expect(left).toEqual([]);
    expect(await byProvider(aliceToken, 'xero')).toMatchObject({ authorization_status: null, account_name: null });
    expect((await sql`select * from connection_credentials where connection_id = ${xero.id}`.execute(server.db)).rows).toEqual([]);
  });

  it('answers an unknown provider with a clear 404', async () => {
    const res = await server.call('GET', `/api/connections/connect/dropbox?token=${aliceToken}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('There is no connector "dropbox" to connect on this server.');
  });
});
