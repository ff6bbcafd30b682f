jest.mock('oauth4webapi', () => jest.requireActual('./native-oauth4webapi').loadOAuth4WebApi());
/**
 * Issue 25, the guided first run: one click connects the signed-in user's sandbox accounts
 * (POST /api/plugins/connectors/sandbox/connect, through ConnectionService as a Connect in the
 * popup does), and the sample invoices go into the recipe's sandbox Drive folder
 * (POST /api/plugins/sample-data/drive-folder/:recipeId). Both exist only outside production and
 * only while the providers run on their sandbox.
 */
import { readFileSync } from 'node:fs';
import catalogueCore from '../../../plugins/catalogue-core/server';
import { createConnectorsPlugin } from '../../../plugins/connectors/server';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import { FOLDER_MIME } from '../../../plugins/connectors/sandbox/sandbox-server';
import sampleData, { SAMPLE_DRIVE_INVOICES } from '../../../plugins/sample-data/server';
import { Connections } from '../../../src/server/connections';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { recordOf } from '../automation/support';
import { connect, widgetToken } from './connect-flow';

jest.setTimeout(60_000);

describe('one-click sandbox connect and the sample invoices in the Drive folder', () => {
  let server: TestServer;
  let connectors: ReturnType<typeof createConnectorsPlugin>;
  let alice: TestUser;
  let bob: TestUser;
  const sandbox = () => connectors.sandbox()!;
  const widgetList = async (user: TestUser) =>
    (
      (await server.call('GET', '/api/connections', { headers: { authorization: `Bearer ${await widgetToken(server, user)}` } })).body.result as Array<{
        provider: string;
        authorization_status: string | null;
        account_name: string | null;
        sandbox: boolean;
      }>
    ).map((c) => [c.provider, c.authorization_status, c.account_name, c.sandbox]);

  beforeAll(async () => {
    connectors = createConnectorsPlugin();
    server = await startTestServer({ plugins: [catalogueCore, connectors, invoiceExtraction, sampleData], env: { SANDBOX_PROVIDERS: 'true' } });
    alice = await createUser(server);
    bob = await createUser(server);
    // Bob connected his Drive in the popup before, as another Google account
    expect((await connect(server, await widgetToken(server, bob), 'google_drive', 'bob.drive@example.com')).get('result')).toBe('connected');
  });
  afterAll(() => server.close());

  it('tells a signed-in user where the sandbox page is and which providers run on it; a visitor is refused', async () => {
    const res = await server.call('GET', '/api/plugins/connectors/sandbox', { token: alice.access });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: sandbox().url,
      providers: [
        { provider: 'google_drive', name: 'Google Drive' },
        { provider: 'google_sheets', name: 'Google Sheets' },
        { provider: 'xero', name: 'Xero' },
      ],
    });
    expect(sandbox().url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await server.call('GET', '/api/plugins/connectors/sandbox')).status).toBe(401);
    expect((await server.call('POST', '/api/plugins/connectors/sandbox/connect')).status).toBe(401);
  });

  it("connects every sandboxed provider of the caller as their e-mail address, stored as a Connect stores it; Bob's connections are untouched", async () => {
    const res = await server.call('POST', '/api/plugins/connectors/sandbox/connect', { token: alice.access });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      connected: [
        { provider: 'google_drive', name: 'Google Drive', account: alice.email },
        { provider: 'google_sheets', name: 'Google Sheets', account: alice.email },
        { provider: 'xero', name: 'Xero', account: alice.email },
      ],
      already_connected: [],
    });
    expect(await widgetList(alice)).toEqual([
      ['google_drive', 'success', alice.email, true],
      ['google_sheets', 'success', alice.email, true],
      ['xero', 'success', alice.email, true],
    ]);
    expect(await widgetList(bob)).toEqual([
      ['google_drive', 'success', 'bob.drive@example.com', true],
      ['google_sheets', null, null, true],
      ['xero', null, null, true],
    ]);
    // the stored tokens are real sandbox grants of Alice's account: the Drive API answers with them
    const connections = server.container.get(Connections);
    const drive = await connections.accessToken(alice.workatoId, 'google_drive');
    expect(drive.accountId).toBe(alice.email);
    const me = await fetch(`${sandbox().url}/google/oauth2/v2/userinfo`, { headers: { authorization: `Bearer ${drive.token}` } });
    expect(await me.json()).toEqual({ id: alice.email, email: alice.email, verified_email: true });
    const xero = await connections.accessToken(alice.workatoId, 'xero');
    const orgs = (await (await fetch(`${sandbox().url}/xero/connections`, { headers: { authorization: `Bearer ${xero.token}` } })).json()) as Array<{
      tenantName: string;
    }>;
    expect(orgs.map((o) => o.tenantName)).toEqual([alice.email]);
    // nothing pending is left behind
    expect(await server.db.selectFrom('oauth_pending').select('id').execute()).toEqual([]);
  });

  it('a second press connects nothing new and says what was already connected; Bob gets only what he lacked', async () => {
    const again = await server.call('POST', '/api/plugins/connectors/sandbox/connect', { token: alice.access });
    expect(again.body).toEqual({ connected: [], already_connected: ['google_drive', 'google_sheets', 'xero'] });
    const forBob = await server.call('POST', '/api/plugins/connectors/sandbox/connect', { token: bob.access });
    expect(forBob.body).toEqual({
      connected: [
        { provider: 'google_sheets', name: 'Google Sheets', account: bob.email },
        { provider: 'xero', name: 'Xero', account: bob.email },
      ],
      already_connected: ['google_drive'],
    });
    expect(await widgetList(bob)).toEqual([
      ['google_drive', 'success', 'bob.drive@example.com', true],
      ['google_sheets', 'success', bob.email, true],
      ['xero', 'success', bob.email, true],
    ]);
  });

  it("puts both sample invoices, byte for byte, into the recipe's Drive folder through the sandbox; another user's recipe is 404", async () => {
    const rec = await recordOf(server, alice, 1);
    const url = `/api/plugins/sample-data/drive-folder/${rec.recipe_id}`;
    const stored = await server.db.selectFrom('user_recipes').select('folder_id').where('id', '=', rec.recipe_id).executeTakeFirstOrThrow();
    if (!stored.folder_id) {
      const early = await server.call('POST', url, { token: alice.access });
      expect(early.status).toBe(409);
      expect(early.body.message).toBe('The Drive folder of this automation is still being made. Wait a few seconds and press the button again.');
    }
    const folder = sandbox().addFile(
      alice.email,
      { name: 'Google Drive Invoices to Google Sheets', mimeType: FOLDER_MIME, parents: ['root'] },
      Buffer.alloc(0),
    );
    await server.db.updateTable('user_recipes').set({ folder_id: folder.id }).where('id', '=', rec.recipe_id).execute();

    expect((await server.call('POST', url, { token: bob.access })).status).toBe(404);
    const res = await server.call('POST', url, { token: alice.access });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      folder_id: folder.id,
      files: [
        { id: expect.stringMatching(/^file_/), name: 'sample-invoice-acme-42.pdf' },
        { id: expect.stringMatching(/^file_/), name: 'sample-invoice-lieferant-471102.pdf' },
      ],
    });
    const inFolder = sandbox()
      .state.account(alice.email)
      .files.filter((f) => f.parents.includes(folder.id));
    expect(inFolder.map((f) => [f.id, f.name, f.mimeType])).toEqual(res.body.files.map((f: { id: string; name: string }) => [f.id, f.name, 'application/pdf']));
    for (const [i, sample] of SAMPLE_DRIVE_INVOICES.entries()) expect(sandbox().state.readBlob(inFolder[i].id)!.equals(readFileSync(sample.file))).toBe(true);
    // the second sample is the corpus invoice, unchanged
    expect(readFileSync(SAMPLE_DRIVE_INVOICES[1].file).equals(readFileSync('tests/fixtures/real-invoices/de-EN16931_Einfach_DueDate.pdf'))).toBe(true);
    // nothing went into Bob's Drive
    expect(
      sandbox()
        .state.account('bob.drive@example.com')
        .files.filter((f) => f.mimeType === 'application/pdf'),
    ).toEqual([]);
  });
});

describe('the sandbox shortcuts do not exist in production or when the providers are real', () => {
  it.each([
    ['production, even with SANDBOX_PROVIDERS=true', { NODE_ENV: 'production', SANDBOX_PROVIDERS: 'true' }],
    [
      'real providers',
      { SANDBOX_PROVIDERS: 'false', GOOGLE_CLIENT_ID: 'real-google', GOOGLE_CLIENT_SECRET: 's', XERO_CLIENT_ID: 'real-xero', XERO_CLIENT_SECRET: 's' },
    ],
  ])('%s: 404 for the sandbox page, the connect and the sample invoices; nothing is connected', async (_what, env) => {
    const server = await startTestServer({ plugins: [catalogueCore, createConnectorsPlugin(), invoiceExtraction, sampleData], env });
    try {
      const user = await createUser(server);
      const rec = await recordOf(server, user, 1);
      expect((await server.call('GET', '/api/plugins/connectors/sandbox', { token: user.access })).status).toBe(404);
      const res = await server.call('POST', '/api/plugins/connectors/sandbox/connect', { token: user.access });
      expect([res.status, res.body.message]).toEqual([404, 'There is no sandbox on this server.']);
      const samples = await server.call('POST', `/api/plugins/sample-data/drive-folder/${rec.recipe_id}`, { token: user.access });
      expect([samples.status, samples.body.message]).toEqual([404, 'There is no sandbox Google Drive on this server.']);
      const rows = await server.db
        .selectFrom('connections')
        .select(['provider', 'authorization_status'])
        .where('managed_user_id', '=', user.workatoId)
        .execute();
      expect(rows.filter((r) => r.authorization_status === 'success')).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
