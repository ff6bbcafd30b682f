jest.mock('oauth4webapi', () => jest.requireActual('../connections/native-oauth4webapi').loadOAuth4WebApi());
/**
 * Issue 19: a token the provider refuses (401) before it expires. The Drive trigger and the
 * Drive, Sheets and Xero steps renew it at once (ConnectionService.rejected): a grant still
 * standing gives a fresh token and the call is made again; a revoked grant marks the connection
 * lost, so the widget shows it needing reconnect, and the job's error (or the trigger's state)
 * says so instead of retrying a dead token.
 */
import { Connections } from '../../../src/server/connections';
import { TriggerPolling } from '../../../src/server';
import type { TestServer, TestUser } from '../../support/server';
import { connect, widgetToken } from '../connections/connect-flow';
import {
  chooseSheet,
  dataServer,
  GBP_EXCLUSIVE,
  fileBody,
  invoicePdf,
  recordOf,
  runThroughWebhook,
  started,
  stepContext,
  stepKind,
  userSheet,
  type GoogleSandbox,
} from './support';

jest.setTimeout(120_000);

const ACCOUNT = 'refused@example.com';
const LOST = (name: string, prefix = '') =>
  new RegExp(
    `^${prefix}${name} refused the saved sign-in and it could not be renewed, so the connection now needs reconnecting: ${name} is not connected \\(The provider refused the token refresh: invalid_grant.*\\): connect it in the connections tab, then try again\\.$`,
  );

describe('a refused token: renewed, or the connection shown lost with the reason', () => {
  let server: TestServer;
  let user: TestUser;
  let sandbox: () => GoogleSandbox;
  let widget: string;
  let seq = 0;
  const jobId = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;
  const connections = async () =>
    (
      (await server.call('GET', '/api/connections', { headers: { authorization: `Bearer ${widget}` } })).body.result as Array<{
        provider: string;
        authorization_status: string | null;
      }>
    ).map((c) => [c.provider, c.authorization_status]);
  const storedToken = async (provider: string) => (await server.container.get(Connections).accessToken(user.workatoId, provider)).token;
  const dropAccessToken = (token: string) => sandbox().state.change((st) => delete st.access[token]);
  const download = async (fileId: string) => {
    const rec = await recordOf(server, user, 1);
    return stepKind(server, 'google_drive:download_file').run({}, stepContext(server, user, rec, { jobId: jobId(), stepIndex: 1, data: { file_id: fileId } }));
  };

  beforeAll(async () => {
    ({ server, user, sandbox } = await dataServer(ACCOUNT));
    widget = await widgetToken(server, user);
    await connect(server, widget, 'google_drive', ACCOUNT);
  });
  afterAll(() => server.close());

  it('a token refused while the grant stands: the Drive step renews it and downloads the file; the connection stays', async () => {
    const fileId = sandbox().addFile(ACCOUNT, { name: 'renewed.pdf', mimeType: 'application/pdf', parents: ['root'] }, Buffer.from('%PDF-1.4\nrenewed\n')).id;
    const before = await storedToken('google_drive');
    dropAccessToken(before);
    const out: any = await download(fileId);
    expect(out.files).toHaveLength(1);
    expect(out.files[0]).toMatchObject({ name: 'renewed.pdf', size: 17 });
    expect(await storedToken('google_drive')).not.toBe(before);
    expect(await connections()).toEqual([
      ['google_drive', 'success'],
      ['google_sheets', 'success'],
      ['xero', 'success'],
    ]);
  });

  it('a token refused while the grant stands: the Sheets step renews it and writes the row', async () => {
    const sheetId = userSheet(sandbox(), ACCOUNT, 'Renewed');
    const rec = await recordOf(server, user, 8);
    await chooseSheet(server, user, rec.recipe_id, sheetId);
    dropAccessToken(await storedToken('google_sheets'));
    const doc = {
      name: 'a.pdf',
      fields: { invoice_number: 'INV-1', total: 12.5 },
      confidence: { invoice_number: 0.95, total: 0.95 },
      lineItems: [],
      warnings: [],
    };
    await stepKind(server, 'google_sheets:append_row').run(doc, stepContext(server, user, rec, { jobId: jobId() }));
    const rows = sandbox()
      .state.account(ACCOUNT)
      .spreadsheets.find((s) => s.spreadsheetId === sheetId)!.rows;
    expect(rows.slice(1)).toEqual([['a.pdf', 'INV-1', '', '', '', '', '', '', '', '', '', '', '', '12.5', '', expect.any(String)]]);
  });

  it('the Google grant revoked at Google: the Drive job fails saying Drive needs reconnecting, and Drive and Sheets show not connected', async () => {
    const fileId = sandbox().addFile(ACCOUNT, { name: 'lost.pdf', mimeType: 'application/pdf', parents: ['root'] }, Buffer.from('%PDF-1.4\n')).id;
    await connect(server, widget, 'google_sheets', ACCOUNT);
    const rec = await started(server, user, 1);
    sandbox().oauth.revokeAccount('google', ACCOUNT);
    const done = await runThroughWebhook(server, user, rec, { file_id: fileId });
    expect(done.job.status).toBe('failed');
    expect(done.job.error).toMatch(LOST('Google Drive', 'Step 1 "Download the file from Google Drive" failed: '));
    // one try: a dead grant is not retried
    expect(done.steps[1]).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await connections())[0]).toEqual(['google_drive', null]);
    // the Sheets connection of the same grant finds out at its own next call
    const sheets = await recordOf(server, user, 8);
    const doc = { name: 'b.pdf', fields: { invoice_number: 'INV-2', total: 1 }, confidence: {}, lineItems: [], warnings: [] };
    // the step declares its auth: either the engine's refresh before the step finds the grant gone (a token past its
    // lifetime), or Google refuses the still-fresh token and the renewal fails; both say to reconnect Google Sheets
    await expect(stepKind(server, 'google_sheets:append_row').run(doc, stepContext(server, user, sheets, { jobId: jobId() }))).rejects.toThrow(
      /^(Google Sheets refused the saved sign-in and it could not be renewed, so the connection now needs reconnecting: )?Google Sheets is not connected \(The provider refused the token refresh: invalid_grant.*\): connect it in the connections tab, then try again\.$/,
    );
    expect(await connections()).toEqual([
      ['google_drive', null],
      ['google_sheets', null],
      ['xero', 'success'],
    ]);
    await server.call('PUT', '/api/platform/proxy', { token: user.access, body: { url: `api/managed_users/${user.workatoId}/recipes/${rec.recipe_id}/stop` } });
  });

  it('the Xero grant revoked: the bill step fails saying Xero needs reconnecting, and Xero shows not connected', async () => {
    const rec = await started(server, user, 9);
    sandbox().oauth.revokeAccount('xero', ACCOUNT);
    const bills = sandbox().state.account(ACCOUNT).invoices.length;
    const done = await runThroughWebhook(server, user, rec, fileBody('gbp.pdf', await invoicePdf(GBP_EXCLUSIVE)), 60_000);
    expect(done.job.status).toBe('failed');
    expect(done.job.error).toMatch(LOST('Xero', 'Step 2 "Create a draft bill in Xero" failed: '));
    expect(sandbox().state.account(ACCOUNT).invoices).toHaveLength(bills);
    expect((await connections())[2]).toEqual(['xero', null]);
  });

  it("the Drive trigger: a revoked grant is the trigger's state (and its health), naming the lost connection; reconnecting resumes it", async () => {
    for (const p of ['google_drive', 'google_sheets']) await connect(server, widget, p, ACCOUNT);
    const rec = await started(server, user, 1);
    const poller = server.container.get(TriggerPolling);
    const trigger = 'google_drive:new_file_in_folder';
    // the start's own poll activates it (or this one does)
    await poller.pollRecipe({ recipeId: rec.recipe_id, trigger });
    expect((await poller.pollRecipe({ recipeId: rec.recipe_id, trigger })).outcome).toBe('polled');
    sandbox().oauth.revokeAccount('google', ACCOUNT);
    const failed = await poller.pollRecipe({ recipeId: rec.recipe_id, trigger });
    expect(failed.outcome).toBe('failed');
    expect(failed.error).toMatch(
      /^Google Drive is not connected \(The provider refused the token refresh: invalid_grant.*\): connect it in the connections tab, then try again\.$/,
    );
    expect((await connections())[0]).toEqual(['google_drive', null]);
    const health = await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/trigger-health`, { token: user.access });
    expect(health.body.health).toEqual({ trigger, working: false, reason: failed.error });
    await connect(server, widget, 'google_drive', ACCOUNT);
    expect((await poller.pollRecipe({ recipeId: rec.recipe_id, trigger })).outcome).toBe('polled');
    expect((await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/trigger-health`, { token: user.access })).body.health).toEqual({
      trigger,
      working: true,
      reason: null,
    });
  });
});
