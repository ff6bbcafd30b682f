jest.mock('oauth4webapi', () => jest.requireActual('../connections/native-oauth4webapi').loadOAuth4WebApi());
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import catalogueCore from '../../../plugins/catalogue-core/server';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import documentExtraction from '../../../plugins/document-extraction/server';
import { createConnectorsPlugin } from '../../../plugins/connectors/server';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { AutomationOptions, type EngineOptions } from '../../../src/server/automation';
import * as T from '../../../src/server/tokens';
import { ScriptedOcr } from '../extraction-routes/support';
import { FAST, recordOf, sleep, startRecipe, until, waitForJob, webhookPath, type Rec } from './support';
import { connect, widgetToken } from '../connections/connect-flow';

jest.setTimeout(120_000);

/**
 * Start means Start (issue 19), over HTTP with the sandbox providers: opening a setup screen (its
 * setup call) and connecting an account prepare the folder and the sheet and nothing more; a
 * recipe starts only when the user presses Start, and only with every account its steps need
 * connected (combination 1 is authorised by Drive alone, but its last step writes to Sheets).
 */
describe('no recipe runs until Start, and Start needs every connection the steps use', () => {
  let dataDir: string;
  let server: TestServer;
  let connectors: ReturnType<typeof createConnectorsPlugin>;
  let alice: TestUser;
  const ALICE = 'alice-start@example.com';
  const sandbox = () => connectors.sandbox()!;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-start-'));
    connectors = createConnectorsPlugin();
    server = await startTestServer({
      plugins: [catalogueCore, connectors, invoiceExtraction, documentExtraction],
      env: { SANDBOX_PROVIDERS: 'true', DRIVE_POLL_INTERVAL_MS: '1000', DATA_DIR: dataDir },
      overrides: (c) => {
        c.rebind(T.Ocr).toConstantValue(new ScriptedOcr());
        const base = c.get<EngineOptions>(AutomationOptions);
        c.rebind<EngineOptions>(AutomationOptions).toConstantValue({ ...base, ...FAST, stepTimeoutMs: 10_000, aiStepTimeoutMs: 20_000 });
      },
    });
    alice = await createUser(server);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The setup screen's call, as the screen sends it on first view once authorised; waits for the starter's run. */
  async function setUp(rec: Rec): Promise<void> {
    const starter = await recordOf(server, alice, 0);
    const before = await server.db.selectFrom('automation_jobs').select('id').where('recipe_id', '=', starter.recipe_id).execute();
    const call = await server.call('POST', webhookPath(rec), {
      body: { customer_id: alice.workatoId, email: alice.email, instance: 66075, recipe_id: starter.recipe_id, combination_id: rec.combination },
    });
    expect(call.status).toBe(200);
    const job = await until('the starter job', async () => {
      const rows = await server.db.selectFrom('automation_jobs').select('id').where('recipe_id', '=', starter.recipe_id).execute();
      return rows.find((r) => !before.some((b) => b.id === r.id))?.id;
    });
    expect((await waitForJob(server, alice, job, ['succeeded', 'failed'], 20_000)).job.status).toBe('succeeded');
  }

  const recipeState = async (recipeId: number) =>
    server.db.selectFrom('user_recipes').select(['running', 'status', 'folder_id', 'sheet_id']).where('id', '=', recipeId).executeTakeFirstOrThrow();
  const jobsOf = async (recipeId: number) => server.db.selectFrom('automation_jobs').select('id').where('recipe_id', '=', recipeId).execute();
  const cursorsOf = async (recipeId: number) => server.db.selectFrom('connector_cursors').selectAll().where('recipe_id', '=', recipeId).execute();

  it('combination 1 with Google Drive only: set up, not running; Start is refused naming Google Sheets; nothing is watched', async () => {
    await connect(server, await widgetToken(server, alice), 'google_drive', ALICE);
    const rec = await recordOf(server, alice, 1);
    await setUp(rec);
    await sleep(2500); // two poll intervals: nothing may have started meanwhile
    const state = await recipeState(rec.recipe_id);
    expect(state.running).toBe(false);
    expect(state.status).toBe('ready');
    expect(await cursorsOf(rec.recipe_id)).toEqual([]);
    expect(await jobsOf(rec.recipe_id)).toEqual([]);

    const refused = await startRecipe(server, alice, rec.recipe_id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Connect Google Sheets to start this workflow.');
    expect(refused.body.missing_connections).toEqual([{ provider: 'google_sheets', name: 'Google Sheets' }]);
    expect((await recipeState(rec.recipe_id)).running).toBe(false);

    // a file dropped in the folder now is not processed: the recipe does not run
    sandbox().addFile(ALICE, { name: 'early.pdf', mimeType: 'application/pdf', parents: [state.folder_id!] }, Buffer.from('%PDF-1.4\n'));
    await sleep(2500);
    expect(await jobsOf(rec.recipe_id)).toEqual([]);
  });

  it('connecting Google Sheets starts nothing; Start then starts it (complete) and its trigger watches', async () => {
    await connect(server, await widgetToken(server, alice), 'google_sheets', ALICE);
    const rec = await recordOf(server, alice, 1);
    await sleep(2500);
    expect((await recipeState(rec.recipe_id)).running).toBe(false);
    expect(await cursorsOf(rec.recipe_id)).toEqual([]);

    const started = await startRecipe(server, alice, rec.recipe_id);
    expect(started.status).toBe(200);
    expect(await recipeState(rec.recipe_id)).toMatchObject({ running: true, status: 'complete' });
    await until('the trigger to watch', async () => (await cursorsOf(rec.recipe_id)).some((c) => c.cursor));
    // the file dropped before the first Start is offered, not run: the user processes or skips it
    const waiting = await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/waiting`, { token: alice.access });
    expect(waiting.body.items.map((i: { name: string; why: string }) => [i.name, i.why])).toEqual([['early.pdf', 'already_there']]);
    await sleep(2500);
    expect(await jobsOf(rec.recipe_id)).toEqual([]);
    expect((await startRecipe(server, alice, rec.recipe_id, 'stop')).status).toBe(200);
  });

  it('combination 4 with Google already connected: its setup call prepares the folder and the Sheet, and it stays stopped', async () => {
    const rec = await recordOf(server, alice, 4);
    expect(rec.status).toBe('no started');
    await setUp(rec);
    await sleep(2500);
    const state = await recipeState(rec.recipe_id);
    expect(state).toMatchObject({ running: false, status: 'ready' });
    expect(state.folder_id).toBeTruthy();
    expect(state.sheet_id).toBeTruthy();
    expect(await cursorsOf(rec.recipe_id)).toEqual([]);
    expect(await jobsOf(rec.recipe_id)).toEqual([]);
    // the records the screen reads say the same
    const records = await server.call('GET', `/api/platform/userByWorkatoRecipe/${alice.workatoId}/`, { token: alice.access });
    expect(records.body.workato_recipes.find((r: Rec) => r.combination === 4)).toMatchObject({ status: 'ready' });
  });

  it('a connection lost after the start: a new Start is refused naming it, a stop still works', async () => {
    const rec = await recordOf(server, alice, 4);
    expect((await startRecipe(server, alice, rec.recipe_id)).status).toBe(200);
    const sheets = await server.db
      .selectFrom('connections')
      .select('id')
      .where('managed_user_id', '=', alice.workatoId)
      .where('provider', '=', 'google_sheets')
      .executeTakeFirstOrThrow();
    const widget = await widgetToken(server, alice);
    const gone = await server.call('POST', `/api/connections/${sheets.id}/disconnect?token=${encodeURIComponent(widget)}`);
    expect(gone.status).toBe(200);
    expect((await startRecipe(server, alice, rec.recipe_id, 'stop')).status).toBe(200);
    const refused = await startRecipe(server, alice, rec.recipe_id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Connect Google Sheets to start this workflow.');
  });
});
