jest.mock('oauth4webapi', () => jest.requireActual('./native-oauth4webapi').loadOAuth4WebApi());
/**
 * Issue 19: disconnecting Google Sheets ended the whole Google grant (Drive and Sheets are one
 * OAuth client; revoking a token revokes the grant), so the Drive trigger then failed with 401
 * while the widget still showed Drive connected. Now the shared grant is revoked only with the
 * last Google product of the same account.
 */
import { createConnectorsPlugin } from '../../../plugins/connectors/server';
import { Connections } from '../../../src/server/connections';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { connect, widgetToken } from './connect-flow';

describe('disconnecting one Google product keeps the others working', () => {
  let server: TestServer;
  const plugin = createConnectorsPlugin();
  const sandbox = () => plugin.sandbox()!;
  const list = async (token: string) =>
    (
      (await server.call('GET', '/api/connections', { headers: { authorization: `Bearer ${token}` } })).body.result as Array<{
        id: number;
        provider: string;
        authorization_status: string | null;
        account_name: string | null;
      }>
    ).map((c) => [c.provider, c.authorization_status, c.account_name]);
  const idOf = async (token: string, provider: string) =>
    (
      (await server.call('GET', '/api/connections', { headers: { authorization: `Bearer ${token}` } })).body.result as Array<{ id: number; provider: string }>
    ).find((c) => c.provider === provider)!.id;
  const disconnect = async (token: string, provider: string) =>
    (await server.call('POST', `/api/connections/${await idOf(token, provider)}/disconnect`, { headers: { authorization: `Bearer ${token}` } })).body;
  const grantsOf = (account: string) => Object.values(sandbox().state.read().refresh).filter((g) => g.provider === 'google' && g.account === account).length;
  /** a Drive call with the stored token, as the Drive trigger makes it */
  const driveCall = async (user: TestUser) => {
    const { token } = await server.container.get(Connections).accessToken(user.workatoId, 'google_drive');
    return (await fetch(`${sandbox().url}/google/drive/v3/files?q=${encodeURIComponent('trashed = false')}`, { headers: { authorization: `Bearer ${token}` } }))
      .status;
  };

  beforeAll(async () => {
    server = await startTestServer({ plugins: [plugin], env: { SANDBOX_PROVIDERS: 'true' } });
  });
  afterAll(() => server.close());

  it('Drive and Sheets on one account: Sheets off leaves Drive connected and working; Drive off then ends the grant', async () => {
    const user = await createUser(server);
    const token = await widgetToken(server, user);
    for (const p of ['google_drive', 'google_sheets']) expect((await connect(server, token, p, 'shared@example.com')).get('result')).toBe('connected');
    expect(grantsOf('shared@example.com')).toBe(2);

    expect(await disconnect(token, 'google_sheets')).toEqual({ status: 'success', revoked: false });
    expect(await driveCall(user)).toBe(200);
    // the folder picker (the user's Drive through the stored connection) still answers
    expect((await server.call('GET', '/api/plugins/connectors/picker?kind=folder', { token: user.access })).status).toBe(200);
    expect(await list(token)).toEqual([
      ['google_drive', 'success', 'shared@example.com'],
      ['google_sheets', null, null],
      ['xero', null, null],
    ]);

    // the last Google product of the account goes: the grant is revoked at Google
    expect(await disconnect(token, 'google_drive')).toEqual({ status: 'success', revoked: true });
    expect(grantsOf('shared@example.com')).toBe(0);
    expect(await list(token)).toEqual([
      ['google_drive', null, null],
      ['google_sheets', null, null],
      ['xero', null, null],
    ]);
  });

  it('Drive and Sheets on different Google accounts: each grant is its own and is revoked with its connection', async () => {
    const user = await createUser(server);
    const token = await widgetToken(server, user);
    await connect(server, token, 'google_drive', 'drive-owner@example.com');
    await connect(server, token, 'google_sheets', 'sheets-owner@example.com');
    expect(await disconnect(token, 'google_sheets')).toEqual({ status: 'success', revoked: true });
    expect(grantsOf('sheets-owner@example.com')).toBe(0);
    expect(await driveCall(user)).toBe(200);
    expect((await list(token))[0]).toEqual(['google_drive', 'success', 'drive-owner@example.com']);
  });

  it("another user's connections never keep a grant alive", async () => {
    const [a, b] = [await createUser(server), await createUser(server)];
    const [ta, tb] = [await widgetToken(server, a), await widgetToken(server, b)];
    await connect(server, ta, 'google_sheets', 'a@example.com');
    await connect(server, tb, 'google_drive', 'a@example.com');
    // b's Drive row is the same Google account, but it is b's: a's Sheets grant is a's own
    expect(await disconnect(ta, 'google_sheets')).toEqual({ status: 'success', revoked: true });
  });

  it('a grant revoked at Google: the next Google call finds out, and the widget shows the connection lost instead of connected', async () => {
    const user = await createUser(server);
    const token = await widgetToken(server, user);
    await connect(server, token, 'google_drive', 'revoked@example.com');
    expect((await server.call('GET', '/api/plugins/connectors/picker?kind=folder', { token: user.access })).status).toBe(200);
    sandbox().oauth.revokeAccount('google', 'revoked@example.com');
    const res = await server.call('GET', '/api/plugins/connectors/picker?kind=folder', { token: user.access });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(
      /^Google Drive is not connected \(The provider refused the token refresh: invalid_grant.*\): connect it in the connections tab, then try again\.$/,
    );
    expect((await list(token))[0]).toEqual(['google_drive', null, null]);
  });

  it('a token refused once while the grant stands: refreshed and the call made again', async () => {
    const user = await createUser(server);
    const token = await widgetToken(server, user);
    await connect(server, token, 'google_drive', 'refreshed@example.com');
    // the access token alone is dropped at Google (the refresh token still stands)
    const { token: access } = await server.container.get(Connections).accessToken(user.workatoId, 'google_drive');
    sandbox().state.change((st) => delete st.access[access]);
    expect((await server.call('GET', '/api/plugins/connectors/picker?kind=folder', { token: user.access })).status).toBe(200);
    expect((await list(token))[0]).toEqual(['google_drive', 'success', 'refreshed@example.com']);
    expect((await server.container.get(Connections).accessToken(user.workatoId, 'google_drive')).token).not.toBe(access);
  });
});
