jest.mock('oauth4webapi', () => jest.requireActual('./native-oauth4webapi').loadOAuth4WebApi());
import catalogueCore from '../../../plugins/catalogue-core/server';
import { Connections, defineServerPlugin, type ConnectionService } from '../../../src/server';
import { collectCatalogue } from '../../../src/server/catalogue';
import { TokenCipher } from '../../../src/server/connections';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { connectionCheckOf } from '../../../src/server/automation/polling';
import { confirm, sessionOfWidgetToken, widgetToken } from './connect-flow';
import { createFixtureChatPlugin, fixtureChat } from './fixtures/fixture-chat-plugin';

const SECRET = 'test-secret-key-that-is-long-enough-0123456789';
jest.setTimeout(180_000);

/**
 * Connectors are plugin contributions: a plugin the core has never heard of declares an OAuth
 * connector (with its own local OAuth look-alike as sandbox) and an API-key connector, and both
 * are listed, connected, used, refreshed and disconnected with no edit of the core.
 */
describe('connectors declared by a plugin', () => {
  let server: TestServer;
  const plugin = createFixtureChatPlugin();
  const log = plugin.chatSandbox.log;
  let alice: TestUser;
  let token: string;
  const connections = () => server.container.get<ConnectionService>(Connections);
  const list = async () => (await server.call('GET', '/api/connections', { headers: { authorization: `Bearer ${token}` } })).body.result as any[];
  const sealed = async (provider: string) =>
    server.db
      .selectFrom('connections as c')
      .innerJoin('connection_credentials as k', 'k.connection_id', 'c.id')
      .select(['c.id', 'k.secret', 'k.account_id', 'k.account_name', 'k.version', 'k.expires_at'])
      .where('c.managed_user_id', '=', alice.workatoId)
      .where('c.provider', '=', provider)
      .executeTakeFirst();

  beforeAll(async () => {
    server = await startTestServer({ plugins: [catalogueCore, plugin], env: { SANDBOX_PROVIDERS: 'true' } });
    alice = await createUser(server);
    token = await widgetToken(server, alice);
  });
  afterAll(() => server.close());

  it('the widget API lists both, sorted by name; only the API-key one carries its form', async () => {
    expect(await list()).toEqual([
      {
        id: expect.any(Number),
        provider: 'fixture_chat',
        name: 'Fixture Chat',
        authorization_status: null,
        account_name: null,
        lost_reason: null,
        sandbox: true,
      },
      {
        id: expect.any(Number),
        provider: 'fixture_keyed',
        name: 'Fixture Keyed',
        authorization_status: null,
        account_name: null,
        lost_reason: null,
        sandbox: false,
        auth: 'api-key',
        key_schema: {
          type: 'object',
          required: ['apiKey', 'workspace'],
          properties: {
            apiKey: { type: 'string', title: 'API key', minLength: 12, maxLength: 200 },
            workspace: { type: 'string', title: 'Workspace', minLength: 1, maxLength: 60 },
          },
        },
        key_ui_schema: { apiKey: { 'ui:widget': 'password' } },
      },
    ]);
  });

  it('the catalogue accepts the declared provider, and refuses one nobody declares', async () => {
    const combination = await server.db.selectFrom('combinations').select(['id', 'connectors']).where('id', '=', 99101).executeTakeFirstOrThrow();
    const stored = typeof combination.connectors === 'string' ? JSON.parse(combination.connectors) : combination.connectors;
    expect(stored).toEqual([
      { id: 9901, name: 'Fixture Chat', icon: 'fixture_chat', provider: 'fixture_chat', order: 1 },
      { id: 6, name: 'Flowmatic AI', icon: 'flowmatic_ai', provider: 'flowmatic_ai', order: 2 },
      { id: 9902, name: 'Fixture Keyed', icon: 'fixture_keyed', provider: 'fixture_keyed', order: 3 },
    ]);
    // the same catalogue without the plugin that declares the connectors fails, naming the provider
    const orphan = defineServerPlugin({ id: 'fixture-orphan', catalogue: plugin.catalogue });
    expect(() => collectCatalogue([catalogueCore, orphan])).toThrow(
      'The catalogue of plugin "fixture-orphan" is not valid: combination 99101 names the connector "fixture_chat", which no running plugin declares',
    );
  });

  it('OAuth: connect → tokens sealed → refresh → disconnect revokes, against its own sandbox', async () => {
    // Connect: the popup's first request sets the cookie and goes to the plugin's sandbox
    const start = await server.call('GET', `/api/connections/connect/fixture_chat?token=${encodeURIComponent(token)}`);
    expect(start.status).toBe(302);
    const authorize = new URL(String(start.headers.location));
    expect(authorize.pathname).toBe('/authorize');
    expect(Object.fromEntries([...authorize.searchParams].filter(([k]) => !['state', 'code_challenge'].includes(k)))).toEqual({
      client_id: 'fixture-chat-client',
      redirect_uri: 'http://localhost:3000/api/connections/callback',
      response_type: 'code',
      scope: 'chat:write channels:read',
      code_challenge_method: 'S256',
    });
    const cookie = ([] as string[])
      .concat(start.headers['set-cookie'] as string)
      .find((c) => c.startsWith('fm_connect='))!
      .split(';')[0];
    const consent = await fetch(authorize, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    const back = await server.call('GET', `${callback.pathname}${callback.search}`, { headers: { cookie } });
    expect(String(back.headers.location)).toBe('/connections/done?result=confirm&provider=fixture_chat');
    const done = await confirm(server, cookie, await sessionOfWidgetToken(server, token));
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'success', provider: 'fixture_chat', name: 'Fixture Chat', account: 'Fixture Team' });
    expect(log.codes).toBe(1);

    // stored sealed: neither token appears in the row; opened with the server's key they are the sandbox's
    const row = (await sealed('fixture_chat'))!;
    expect(row.secret).not.toMatch(/xox/);
    const tokens = JSON.parse(new TokenCipher([SECRET]).open(row.secret!, `connection:${row.id}`));
    expect(tokens.a).toMatch(/^xoxb-fixture-[0-9a-f]{16}$/);
    expect(tokens.r).toMatch(/^xoxr-fixture-[0-9a-f]{16}$/);
    expect([row.account_id, row.account_name, row.version]).toEqual(['T0042', 'Fixture Team', 1]);
    expect((await list())[0]).toMatchObject({ provider: 'fixture_chat', authorization_status: 'success', account_name: 'Fixture Team' });
    expect(await connections().accessToken(alice.workatoId, 'fixture_chat')).toEqual({ token: tokens.a, accountId: 'T0042' });

    // refresh: an access token within a minute of expiry is traded for new ones (rotated refresh token)
    await server.db
      .updateTable('connection_credentials')
      .set({ expires_at: new Date(Date.now() + 10_000) })
      .where('connection_id', '=', row.id)
      .execute();
    const refreshed = await connections().accessToken(alice.workatoId, 'fixture_chat');
    expect(log.refreshes).toEqual([tokens.r]);
    expect(refreshed.token).not.toBe(tokens.a);
    expect(log.access.get(refreshed.token)).toBe('T0042');
    const after = (await sealed('fixture_chat'))!;
    const next = JSON.parse(new TokenCipher([SECRET]).open(after.secret!, `connection:${row.id}`));
    expect(next.a).toBe(refreshed.token);
    expect(next.r).not.toBe(tokens.r);
    expect(after.version).toBe(2);

    // disconnect: the refresh token is revoked at the sandbox, the tokens are forgotten
    const off = await server.call('POST', `/api/connections/${row.id}/disconnect`, { headers: { authorization: `Bearer ${token}` } });
    expect(off.body).toEqual({ status: 'success', revoked: true });
    expect(log.revoked).toEqual([next.r]);
    expect(await sealed('fixture_chat')).toBeUndefined();
    expect((await list())[0]).toMatchObject({ provider: 'fixture_chat', authorization_status: null, account_name: null });
    await expect(connections().accessToken(alice.workatoId, 'fixture_chat')).rejects.toThrow(
      'Fixture Chat is not connected: connect it in the connections tab, then try again.',
    );
  });

  it('API key: the form is checked against its schema, verified, sealed, used and disconnected', async () => {
    const post = (body: unknown) => server.call('POST', '/api/connections/key/fixture_keyed', { headers: { authorization: `Bearer ${token}` }, body });
    const short = await post({ apiKey: 'short', workspace: 'acme' });
    expect([short.status, short.body.message]).toEqual([400, 'API key must be at least 12 characters long.']);
    expect((await post({ apiKey: 'fk_live_0123456789' })).status).toBe(400);
    expect((await post({ apiKey: 'fk_live_0123456789', workspace: 'acme', extra: 1 })).status).toBe(400);
    const refused = await post({ apiKey: 'fk_bad_0123456789', workspace: 'acme' });
    expect([refused.status, refused.body.message]).toEqual([400, 'Fixture Keyed refused the key: the key was revoked']);
    expect(await sealed('fixture_keyed')).toBeUndefined();

    const ok = await post({ apiKey: 'fk_live_0123456789', workspace: 'acme' });
    expect(ok.body).toEqual({ status: 'success', provider: 'fixture_keyed', name: 'Fixture Keyed', account: 'acme workspace' });
    const row = (await sealed('fixture_keyed'))!;
    expect(row.secret).not.toMatch(/fk_live/);
    expect(row.expires_at).toBeNull();
    expect(JSON.parse(new TokenCipher([SECRET]).open(row.secret!, `connection:${row.id}`))).toEqual({
      a: 'fk_live_0123456789',
      k: { apiKey: 'fk_live_0123456789', workspace: 'acme' },
    });
    expect(await connections().accessToken(alice.workatoId, 'fixture_keyed')).toEqual({ token: 'fk_live_0123456789', accountId: 'acme' });
    expect(await connections().keyValues(alice.workatoId, 'fixture_keyed')).toEqual({
      values: { apiKey: 'fk_live_0123456789', workspace: 'acme' },
      accountId: 'acme',
    });
    expect((await list())[1]).toMatchObject({ provider: 'fixture_keyed', authorization_status: 'success', account_name: 'acme workspace' });

    // a key connector has no sign-in page; an OAuth one takes no key
    const signIn = await server.call('GET', `/api/connections/connect/fixture_keyed?token=${encodeURIComponent(token)}`);
    expect([signIn.status, signIn.body.message]).toEqual([
      400,
      'Fixture Keyed is connected with a key, not by signing in: fill in its form in the connections.',
    ]);
    const keyForOAuth = await server.call('POST', '/api/connections/key/fixture_chat', {
      headers: { authorization: `Bearer ${token}` },
      body: { apiKey: 'x' },
    });
    expect([keyForOAuth.status, keyForOAuth.body.message]).toEqual([
      400,
      'Fixture Chat is connected by signing in at the provider, not with a key: press Connect.',
    ]);
    expect((await server.call('POST', '/api/connections/key/fixture_keyed', { body: { apiKey: 'fk_live_0123456789', workspace: 'acme' } })).status).toBe(401);

    const off = await server.call('POST', `/api/connections/${row.id}/disconnect`, { headers: { authorization: `Bearer ${token}` } });
    expect(off.body).toEqual({ status: 'success', revoked: false });
    expect(await sealed('fixture_keyed')).toBeUndefined();
    await expect(connections().keyValues(alice.workatoId, 'fixture_keyed')).rejects.toThrow('Fixture Keyed is not connected');
  });
});

describe("a declared connector's settings are read at start-up", () => {
  it('a client id without its secret stops the start, naming both variables', async () => {
    await expect(startTestServer({ plugins: [createFixtureChatPlugin()], env: { FIXTURE_CHAT_CLIENT_ID: 'abc' } })).rejects.toThrow(
      'Invalid configuration: FIXTURE_CHAT_CLIENT_ID and FIXTURE_CHAT_CLIENT_SECRET must be set together',
    );
    await expect(startTestServer({ plugins: [createFixtureChatPlugin()], env: { SANDBOX_PROVIDERS: 'yes' } })).rejects.toThrow(
      'Invalid configuration: SANDBOX_PROVIDERS must be true or false, got "yes"',
    );
  });

  it('without a client and with SANDBOX_PROVIDERS=false it is not offered, yet a recipe that needs it is still told to connect it', async () => {
    const server = await startTestServer({ plugins: [createFixtureChatPlugin()], env: { SANDBOX_PROVIDERS: 'false' } });
    try {
      const user = await createUser(server);
      const widget = await widgetToken(server, user);
      const listed = (await server.call('GET', '/api/connections', { headers: { authorization: `Bearer ${widget}` } })).body.result as any[];
      expect(listed.map((c) => [c.provider, c.authorization_status])).toEqual([['fixture_keyed', null]]);
      const service = server.container.get<ConnectionService>(Connections);
      expect(service.endpoints(fixtureChat.id)).toBeUndefined();
      const start = await server.call('GET', `/api/connections/connect/fixture_chat?token=${encodeURIComponent(widget)}`);
      expect([start.status, start.body.message]).toEqual([404, 'There is no connector "fixture_chat" to connect on this server.']);
      expect(await connectionCheckOf(service)(user.workatoId, ['manual_upload', 'fixture_chat', 'flowmatic_ai', 'fixture_keyed'])).toEqual([
        { provider: 'fixture_chat', name: 'Fixture Chat' },
        { provider: 'fixture_keyed', name: 'Fixture Keyed' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('with a client and SANDBOX_PROVIDERS=false the real endpoints are used, each overridable by its variable', async () => {
    const server = await startTestServer({
      plugins: [createFixtureChatPlugin()],
      env: {
        SANDBOX_PROVIDERS: 'false',
        FIXTURE_CHAT_CLIENT_ID: 'real-id',
        FIXTURE_CHAT_CLIENT_SECRET: 'real-secret',
        FIXTURE_CHAT_TOKEN_URL: 'https://chat.example/token',
      },
    });
    try {
      expect(server.container.get<ConnectionService>(Connections).endpoints(fixtureChat.id)).toEqual({
        endpoints: {
          authorization: 'https://chat.invalid/oauth/authorize',
          token: 'https://chat.example/token',
          revocation: 'https://chat.invalid/oauth/revoke',
          me: 'https://chat.invalid/api/me',
        },
        clientId: 'real-id',
        clientSecret: 'real-secret',
        sandbox: false,
      });
    } finally {
      await server.close();
    }
  });
});
