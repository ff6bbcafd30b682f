jest.mock('oauth4webapi', () => jest.requireActual('../connections/native-oauth4webapi').loadOAuth4WebApi());
/**
 * Issue 22: a step declared with `auth: 'google_drive'` gets the user's real connection, made
 * through Connect against the sandbox Google: its token reaches the Drive API through ctx.http;
 * a token dropped at Google is refreshed and the call made again; a grant revoked at Google
 * fails the step for good and the widget shows the connection lost.
 */
import { createConnectorsPlugin } from '../../../plugins/connectors/server';
import { defineAction, defineServerPlugin } from '../../../src/server';
import { type CombinationSeed } from '../../../src/core/wire-types';
import { AutomationOptions, type EngineOptions } from '../../../src/server/automation';
import { Connections } from '../../../src/server/connections';
import { combinationRow } from '../../../src/server/catalogue/seed';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { connect, widgetToken } from '../connections/connect-flow';
import { combination, FAST, recordOf, startRecipe, waitForJob, webhookPath } from './support';

jest.setTimeout(60_000);

const COMBO = 9111;

const drivePlugin = defineServerPlugin({
  id: 'typed-steps-drive-test',
  steps: () => [
    defineAction<{ url: string }>({
      provider: 'google_drive',
      action: 'typed_list_files',
      title: 'List the Drive files',
      auth: 'google_drive',
      settings: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } },
      async run(_input, ctx) {
        const res = await ctx.http.get(ctx.settings.url, { auth: true });
        const files = ((res.json as { files?: Array<{ name: string }> })?.files ?? []).map((f) => f.name).sort();
        return { status: res.status, files, account: ctx.connection?.accountId ?? null };
      },
    }),
  ],
});

const combos: CombinationSeed[] = [
  combination(COMBO, [
    { kind: 'trigger', provider: 'webhook', action: 'webhook_received' },
    { kind: 'action', provider: 'google_drive', action: 'typed_list_files', params: { url: '{{drive}}/drive/v3/files?q=trashed%20%3D%20false' } },
  ]),
];

describe('a typed step with auth on the sandbox Google Drive', () => {
  let server: TestServer;
  let user: TestUser;
  let widget: string;
  const plugin = createConnectorsPlugin();
  const sandbox = () => plugin.sandbox()!;

  beforeAll(async () => {
    server = await startTestServer({
      plugins: [plugin, drivePlugin],
      env: { SANDBOX_PROVIDERS: 'true' },
      overrides: (c) => {
        const base = c.get<EngineOptions>(AutomationOptions);
        c.rebind<EngineOptions>(AutomationOptions).toConstantValue({ ...base, ...FAST, stepHttpAllowLoopback: true });
      },
    });
    for (const c of combos)
      await server.db
        .insertInto('combinations')
        .values({ id: c.id, ...combinationRow(c, 'typed-steps-drive-test', false, new Date()) })
        .execute();
    user = await createUser(server);
    widget = await widgetToken(server, user);
  });
  afterAll(() => server.close());

  const run = async () => {
    const rec = await recordOf(server, user, COMBO);
    const res = await server.call('POST', webhookPath(rec), { body: { drive: `${sandbox().url}/google` } });
    expect(res.status).toBe(200);
    return waitForJob(server, user, res.body.job_id);
  };
  const driveStatus = async () =>
    (
      (await server.call('GET', '/api/connections', { headers: { authorization: `Bearer ${widget}` } })).body.result as Array<{
        provider: string;
        authorization_status: string | null;
      }>
    ).find((c) => c.provider === 'google_drive')!.authorization_status;

  it('needs the connection to start, then lists the files with it; refreshes a dropped token; fails for good once the grant is revoked', async () => {
    const rec = await recordOf(server, user, COMBO);
    const refused = await startRecipe(server, user, rec.recipe_id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Connect Google Drive to start this workflow.');

    expect((await connect(server, widget, 'google_drive', 'typed@example.com')).get('result')).toBe('connected');
    expect((await startRecipe(server, user, rec.recipe_id)).status).toBe(200);
    sandbox().addFile('typed@example.com', { name: 'b-invoice.pdf', mimeType: 'application/pdf', parents: [] }, Buffer.from('%PDF-1.4'));
    sandbox().addFile('typed@example.com', { name: 'a-notes.txt', mimeType: 'text/plain', parents: [] }, Buffer.from('notes'));

    const first = await run();
    expect(first.job.status).toBe('succeeded');
    expect(first.steps[1].output).toEqual({ status: 200, files: ['a-notes.txt', 'b-invoice.pdf'], account: expect.any(String) });

    // the access token alone is dropped at Google: the 401 refreshes it and the call is made again
    const { token: access } = await server.container.get(Connections).accessToken(user.workatoId, 'google_drive');
    sandbox().state.change((st) => delete st.access[access]);
    const second = await run();
    expect([second.job.status, second.steps[1].output.files]).toEqual(['succeeded', ['a-notes.txt', 'b-invoice.pdf']]);
    expect((await server.container.get(Connections).accessToken(user.workatoId, 'google_drive')).token).not.toBe(access);
    expect(await driveStatus()).toBe('success');

    // the grant is revoked at Google: the refresh is refused, the connection is lost, the step fails at once
    sandbox().oauth.revokeAccount('google', 'typed@example.com');
    const third = await run();
    expect(third.job.status).toBe('failed');
    expect(third.steps[1].attempts).toBe(1);
    expect(third.steps[1].error).toMatch(
      /^Google Drive is not connected \(The provider refused the token refresh: invalid_grant.*\): connect it in the connections tab, then try again\.$/,
    );
    expect(await driveStatus()).toBe(null);
  });
});
