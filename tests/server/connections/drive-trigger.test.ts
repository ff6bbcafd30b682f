jest.mock('oauth4webapi', () => jest.requireActual('./native-oauth4webapi').loadOAuth4WebApi());
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import Redis from 'ioredis';
import { BullMqQueue } from '../../../src/server/queue/bullmq-queue';
import { tmpdir } from 'node:os';
import path from 'node:path';
import catalogueCore from '../../../plugins/catalogue-core/server';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import { createConnectorsPlugin } from '../../../plugins/connectors/server';
import { loadPdfjs } from '../../../src/server/ai/pdf/pdfjs';
import { renderInvoicePdf, type GeneratedInvoice } from '../../support/invoices/render';
import { INVOICE_COLUMNS } from '../../../plugins/connectors/sheet-mapping';
import { createUser, openTestDatabase, startTestServer, type TestDatabase, type TestServer, type TestUser } from '../../support/server';
import { AutomationOptions, type EngineOptions } from '../../../src/server/automation';
import * as T from '../../../src/server/tokens';
import { ScriptedOcr } from '../extraction-routes/support';
import { FAST, recordOf, sleep, startRecipe, until, waitForJob, webhookPath, type Rec } from '../automation/support';
import { connect, widgetToken } from './connect-flow';

jest.setTimeout(120_000);

const COMBINATION_NAME = 'Google Drive Invoices to Google Sheets';
const redisUrl = process.env.TEST_REDIS_URL;
const redisPrefix = `flowmatic-drive-${randomBytes(5).toString('hex')}`;
const ALICE = 'alice-drive@example.com';
const BOB = 'bob-drive@example.com';
const CAROL = 'carol-drive@example.com';

describe('the Google Drive trigger (new file in the recipe folder), polled with a stored cursor', () => {
  let dataDir: string;
  let database: TestDatabase;
  let server: TestServer;
  let connectors: ReturnType<typeof createConnectorsPlugin>;
  let alice: TestUser;
  let bob: TestUser;
  let rec: Rec;
  let invoice: GeneratedInvoice;
  let second: GeneratedInvoice;
  const sandbox = () => connectors.sandbox()!;

  /** A server on the shared database and DATA_DIR (so a second one is a restart). */
  async function bootOn(db: TestDatabase): Promise<TestServer> {
    connectors = createConnectorsPlugin();
    return startTestServer({
      plugins: [catalogueCore, connectors, invoiceExtraction],
      db: db.db,
      env: { SANDBOX_PROVIDERS: 'true', DRIVE_POLL_INTERVAL_MS: '1000', DATA_DIR: dataDir },
      overrides: (c) => {
        c.rebind(T.Ocr).toConstantValue(new ScriptedOcr());
        // the integration run (TEST_REDIS_URL) drives the trigger on BullMQ, with this file's own key prefix
        if (redisUrl) c.rebind(T.JobQueue).toConstantValue(new BullMqQueue({ url: redisUrl, prefix: redisPrefix }));
        const base = c.get<EngineOptions>(AutomationOptions);
        c.rebind<EngineOptions>(AutomationOptions).toConstantValue({ ...base, ...FAST, stepTimeoutMs: 10_000, aiStepTimeoutMs: 20_000 });
      },
    });
  }

  /** The recipe's jobs started by the Drive trigger, oldest first. */
  async function driveJobs(recipeId: number) {
    const rows = await server.db
      .selectFrom('automation_jobs')
      .select(['id', 'trigger_summary', 'status', 'trigger_payload'])
      .where('recipe_id', '=', recipeId)
      .orderBy('created_at')
      .execute();
    return rows
      .map((r) => ({ ...r, payload: typeof r.trigger_payload === 'string' ? JSON.parse(r.trigger_payload) : r.trigger_payload }))
      .filter((r) => r.payload.source === 'poll');
  }

  const targets = async (user: TestUser, recipeId: number) => server.call('GET', `/api/plugins/connectors/recipes/${recipeId}/targets`, { token: user.access });
  const watching = (user: TestUser, recipeId: number) =>
    until('the trigger to watch', async () => (await targets(user, recipeId)).body.trigger?.watching === true);
  const folderOf = async (recipeId: number) =>
    await server.db.selectFrom('user_recipes').select(['folder_id', 'sheet_id']).where('id', '=', recipeId).executeTakeFirstOrThrow();
  const dropIn = (account: string, folder: string, name: string, pdf: GeneratedInvoice = invoice) =>
    sandbox().addFile(account, { name, mimeType: 'application/pdf', parents: [folder] }, Buffer.from(pdf.pdf)).id;
  /** The sheet's rows, each as { header: cell } by its header row (the first row). */
  const sheetRecords = (account: string, sheetId: string) => {
    const rows = sandbox()
      .state.account(account)
      .spreadsheets.find((s) => s.spreadsheetId === sheetId)!.rows;
    const [header, ...body] = rows;
    return { header, records: body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']))) };
  };

  beforeAll(async () => {
    await loadPdfjs();
    invoice = await renderInvoicePdf({ seed: 7, layout: 'classic', font: 'helvetica' });
    second = await renderInvoicePdf({ seed: 8, layout: 'classic', font: 'helvetica' });
    dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-drive-'));
    database = await openTestDatabase();
    server = await bootOn(database);
    alice = await createUser(server);
    bob = await createUser(server);
    const at = await widgetToken(server, alice);
    for (const p of ['google_drive', 'google_sheets']) await connect(server, at, p, ALICE);
    await connect(server, await widgetToken(server, bob), 'google_drive', BOB);
    rec = await recordOf(server, alice, 1);
  });
  afterAll(async () => {
    await server.close();
    if (redisUrl) {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${redisPrefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the starter recipe creates the folder and the Sheet named after the combination when combination 1 is set up', async () => {
    const starter = await recordOf(server, alice, 0);
    const call = await server.call('POST', webhookPath(rec), {
      body: { customer_id: alice.id, email: alice.email, instance: 'test', recipe_id: starter.recipe_id, combination_id: 1 },
    });
    expect(call.status).toBe(200);
    const job = await until(
      'the starter job',
      async () => (await server.db.selectFrom('automation_jobs').select('id').where('recipe_id', '=', starter.recipe_id).executeTakeFirst())?.id,
    );
    const done = await waitForJob(server, alice, job, ['succeeded', 'failed'], 20_000);
    expect(done.job.status).toBe('succeeded');
    const out = await server.db.selectFrom('automation_steps').select('output').where('job_id', '=', job).where('index', '=', 1).executeTakeFirstOrThrow();
    const output = typeof out.output === 'string' ? JSON.parse(out.output) : out.output;
    expect(output.prepared).toEqual(['Google Drive folder created', 'Google Sheet created']);
    const { folder_id, sheet_id } = await folderOf(rec.recipe_id);
    const account = sandbox().state.account(ALICE);
    expect(account.files.find((f) => f.id === folder_id)).toMatchObject({ name: COMBINATION_NAME, mimeType: 'application/vnd.google-apps.folder' });
    expect(account.spreadsheets.find((s) => s.spreadsheetId === sheet_id)).toMatchObject({ title: COMBINATION_NAME });
    // the detail column reads them back by name
    const t = await targets(alice, rec.recipe_id);
    expect(t.body).toMatchObject({
      needs: { folder: true, sheet: true },
      folder: { id: folder_id, name: COMBINATION_NAME },
      sheet: { id: sheet_id, name: COMBINATION_NAME },
    });
    expect(t.body.trigger).toMatchObject({ trigger: 'google_drive:new_file_in_folder', watching: false });
  });

  it('while the recipe runs, a new file in its folder starts exactly one job, which writes the row', async () => {
    const { folder_id, sheet_id } = await folderOf(rec.recipe_id);
    // (files already in the folder at the first Start: the last test)
    expect((await startRecipe(server, alice, rec.recipe_id)).status).toBe(200);
    await watching(alice, rec.recipe_id);
    const fileId = dropIn(ALICE, folder_id!, 'new-invoice.pdf');
    const [job] = await until('the job of the new file', async () => {
      const jobs = await driveJobs(rec.recipe_id);
      return jobs.length ? jobs : undefined;
    });
    expect(job.trigger_summary).toMatch(/^New file "new-invoice\.pdf" in Google Drive/);
    expect(job.payload.data).toMatchObject({ file_id: fileId, name: 'new-invoice.pdf', trigger_event: fileId });
    const done = await waitForJob(server, alice, job.id, ['succeeded', 'failed'], 30_000);
    expect(done.job.error).toBeNull();
    const rows = sandbox()
      .state.account(ALICE)
      .spreadsheets.find((s) => s.spreadsheetId === sheet_id)!.rows;
    expect(rows).toHaveLength(2);
    expect(rows[1][0]).toBe('new-invoice.pdf');
    expect(rows[1][1]).toBe(String(invoice.truth.invoice_number));
    // several more polls: still one job
    await sleep(3500);
    const jobs = await driveJobs(rec.recipe_id);
    expect(jobs.map((j) => j.payload.data.name)).toEqual(['new-invoice.pdf']);
    const state = (await targets(alice, rec.recipe_id)).body.trigger;
    expect(state).toMatchObject({ watching: true, last_error: null, items: 1, interval_ms: 1000 });
    expect(Date.now() - Date.parse(state.last_polled_at)).toBeLessThan(5000);
  });

  it('a restart on the same database does not run old files again, and new ones still run once', async () => {
    await server.close();
    server = await bootOn(database);
    await sleep(3000);
    expect((await driveJobs(rec.recipe_id)).map((j) => j.payload.data.name)).toEqual(['new-invoice.pdf']);
    const { folder_id } = await folderOf(rec.recipe_id);
    dropIn(ALICE, folder_id!, 'after-restart.pdf');
    await until('the job of the file dropped after the restart', async () => (await driveJobs(rec.recipe_id)).length === 2);
    await sleep(2500);
    expect((await driveJobs(rec.recipe_id)).map((j) => j.payload.data.name)).toEqual(['new-invoice.pdf', 'after-restart.pdf']);
  });

  it("never reads another user's folder: a recipe pointed at it sees nothing, and the picker refuses it", async () => {
    const aliceFolder = (await folderOf(rec.recipe_id)).folder_id!;
    const bobRec = await recordOf(server, bob, 1);
    const refused = await server.call('PUT', `/api/plugins/connectors/recipes/${bobRec.recipe_id}/targets`, {
      token: bob.access,
      body: { folder_id: aliceFolder },
    });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('That Google Drive folder was not found in your account.');
    // even forced into the database, the poll uses bob's own connection: alice's files never show
    await server.db.updateTable('user_recipes').set({ folder_id: aliceFolder }).where('id', '=', bobRec.recipe_id).execute();
    // bob has Drive only: Start is refused (the recipe's last step writes to Sheets), so his
    // recipe is switched on in the database and its first poll activates the trigger
    expect((await startRecipe(server, bob, bobRec.recipe_id)).body.message).toBe('Connect Google Sheets to start this workflow.');
    await server.db.updateTable('user_recipes').set({ running: true }).where('id', '=', bobRec.recipe_id).execute();
    await watching(bob, bobRec.recipe_id);
    dropIn(ALICE, aliceFolder, 'alice-only.pdf');
    await until("alice's job", async () => (await driveJobs(rec.recipe_id)).some((j) => j.payload.data.name === 'alice-only.pdf'));
    await sleep(2500);
    expect(await driveJobs(bobRec.recipe_id)).toEqual([]);
    expect((await targets(bob, bobRec.recipe_id)).body.trigger).toMatchObject({ items: 0, last_error: null });
    await startRecipe(server, bob, bobRec.recipe_id, 'stop');
  });

  it("the picker lists the caller's own folders and sheets; another user's recipe or connection is refused", async () => {
    const folders = await server.call('GET', '/api/plugins/connectors/picker?kind=folder', { token: alice.access });
    expect(folders.status).toBe(200);
    expect(folders.body.items.map((i: any) => i.name)).toEqual([COMBINATION_NAME]);
    const sheets = await server.call('GET', '/api/plugins/connectors/picker?kind=spreadsheet', { token: alice.access });
    expect(sheets.body.items.map((i: any) => i.name)).toEqual([COMBINATION_NAME]);
    // bob's Drive has only the folder he was given by his own start (none: his recipe pointed at alice's id)
    const bobs = await server.call('GET', '/api/plugins/connectors/picker?kind=folder', { token: bob.access });
    expect(bobs.body.items).toEqual([]);
    // bob naming alice's connection: unknown to him
    const aliceDrive = await server.db
      .selectFrom('connections')
      .select('id')
      .where('managed_user_id', '=', alice.workatoId)
      .where('provider', '=', 'google_drive')
      .executeTakeFirstOrThrow();
    const foreign = await server.call('GET', `/api/plugins/connectors/picker?kind=folder&connection_id=${aliceDrive.id}`, { token: bob.access });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Connection not found.');
    // alice naming her own works; bob without a Sheets connection is told to connect
    expect((await server.call('GET', `/api/plugins/connectors/picker?kind=folder&connection_id=${aliceDrive.id}`, { token: alice.access })).status).toBe(200);
    const noSheets = await server.call('GET', '/api/plugins/connectors/picker?kind=spreadsheet', { token: bob.access });
    expect(noSheets.status).toBe(409);
    expect(noSheets.body.message).toMatch(/^Google Sheets is not connected/);
    // another user's recipe
    expect((await server.call('GET', `/api/plugins/connectors/recipes/${rec.recipe_id}/targets`, { token: bob.access })).status).toBe(404);
    expect((await server.call('PUT', `/api/plugins/connectors/recipes/${rec.recipe_id}/targets`, { token: bob.access, body: { folder_id: 'x' } })).status).toBe(
      404,
    );
    // a spreadsheet is not a folder; bad input is refused with a sentence
    const sheetId = (await folderOf(rec.recipe_id)).sheet_id!;
    const wrong = await server.call('PUT', `/api/plugins/connectors/recipes/${rec.recipe_id}/targets`, { token: alice.access, body: { folder_id: sheetId } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(`"${COMBINATION_NAME}" is not a Google Drive folder.`);
    expect(
      (await server.call('PUT', `/api/plugins/connectors/recipes/${rec.recipe_id}/targets`, { token: alice.access, body: { folder_id: "x' or 1=1" } })).status,
    ).toBe(400);
    expect((await server.call('GET', '/api/plugins/connectors/picker?kind=everything', { token: alice.access })).status).toBe(400);
    expect((await server.call('GET', '/api/plugins/connectors/picker?kind=folder')).status).toBe(401);
  });

  it('choosing another folder watches that one from then on', async () => {
    const other = sandbox().addFile(ALICE, { name: 'Other invoices', mimeType: 'application/vnd.google-apps.folder', parents: ['root'] }, Buffer.alloc(0)).id;
    const old = (await folderOf(rec.recipe_id)).folder_id!;
    const set = await server.call('PUT', `/api/plugins/connectors/recipes/${rec.recipe_id}/targets`, { token: alice.access, body: { folder_id: other } });
    expect(set.status).toBe(200);
    expect(set.body.folder).toEqual({ id: other, name: 'Other invoices' });
    await sleep(2500);
    const before = (await driveJobs(rec.recipe_id)).length;
    dropIn(ALICE, old, 'in-the-old-folder.pdf');
    dropIn(ALICE, other, 'in-the-new-folder.pdf');
    await until("the new folder's job", async () => (await driveJobs(rec.recipe_id)).some((j) => j.payload.data.name === 'in-the-new-folder.pdf'));
    await sleep(2500);
    const names = (await driveJobs(rec.recipe_id)).slice(before).map((j) => j.payload.data.name);
    expect(names).toEqual(['in-the-new-folder.pdf']);
  });

  it("a lost connection is reported as the trigger's state, nothing crashes, and reconnecting resumes it", async () => {
    const drive = await server.db
      .selectFrom('connections')
      .select('id')
      .where('managed_user_id', '=', alice.workatoId)
      .where('provider', '=', 'google_drive')
      .executeTakeFirstOrThrow();
    const token = await widgetToken(server, alice);
    const gone = await server.call('POST', `/api/connections/${drive.id}/disconnect`, { headers: { authorization: `Bearer ${token}` } });
    expect(gone.status).toBe(200);
    const state = await until('the trigger to report the lost connection', async () => {
      const t = (await targets(alice, rec.recipe_id)).body.trigger;
      return t?.last_error ? t : undefined;
    });
    expect(state.last_error).toBe('Google Drive is not connected: connect it in the connections tab, then try again.');
    // the server still answers, and the chain keeps ticking
    await sleep(1500);
    expect((await targets(alice, rec.recipe_id)).status).toBe(200);
    await connect(server, token, 'google_drive', ALICE);
    await until('the trigger to recover', async () => (await targets(alice, rec.recipe_id)).body.trigger.last_error === null);
    const folder = (await folderOf(rec.recipe_id)).folder_id!;
    dropIn(ALICE, folder, 'after-reconnect.pdf');
    await until('the job after reconnecting', async () => (await driveJobs(rec.recipe_id)).some((j) => j.payload.data.name === 'after-reconnect.pdf'));
  });

  const waitingOf = (user: TestUser, recipeId: number) => server.call('GET', `/api/automation/recipes/${recipeId}/waiting`, { token: user.access });
  const waitingCount = (n: number) => until(`${n} waiting files`, async () => (await waitingOf(alice, rec.recipe_id)).body.count === n);

  it('a stopped recipe is not polled, and files that arrive meanwhile wait for the user on Start: processed when asked', async () => {
    await startRecipe(server, alice, rec.recipe_id, 'stop');
    await sleep(1500);
    const before = (await driveJobs(rec.recipe_id)).map((j) => j.payload.data.name);
    const folder = (await folderOf(rec.recipe_id)).folder_id!;
    const first = dropIn(ALICE, folder, 'while-stopped-1.pdf');
    await sleep(20);
    const second = dropIn(ALICE, folder, 'while-stopped-2.pdf');
    await sleep(3000);
    expect((await driveJobs(rec.recipe_id)).map((j) => j.payload.data.name)).toEqual(before);
    expect((await targets(alice, rec.recipe_id)).body.trigger).toMatchObject({ watching: false, waiting: 0 });
    // processing while stopped is refused
    const early = await server.call('POST', `/api/automation/recipes/${rec.recipe_id}/waiting/process`, { token: alice.access });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('This workflow is stopped: start it, then process the waiting files.');
    // Start: the first look finds both files and holds them; nothing runs unasked
    expect((await startRecipe(server, alice, rec.recipe_id)).status).toBe(200);
    await waitingCount(2);
    await sleep(2500);
    expect((await driveJobs(rec.recipe_id)).map((j) => j.payload.data.name)).toEqual(before);
    const list = await waitingOf(alice, rec.recipe_id);
    expect(list.status).toBe(200);
    expect(list.body.trigger).toBe('google_drive:new_file_in_folder');
    expect(list.body.items.map((i: any) => [i.key, i.name, i.summary])).toEqual([
      [first, 'while-stopped-1.pdf', 'New file "while-stopped-1.pdf" in Google Drive'],
      [second, 'while-stopped-2.pdf', 'New file "while-stopped-2.pdf" in Google Drive'],
    ]);
    expect((await targets(alice, rec.recipe_id)).body.trigger).toMatchObject({ watching: true, waiting: 2 });
    // a file added now, while it runs, is not held
    dropIn(ALICE, folder, 'after-start.pdf');
    await until('the job of the file added after the start', async () =>
      (await driveJobs(rec.recipe_id)).some((j) => j.payload.data.name === 'after-start.pdf'),
    );
    expect((await waitingOf(alice, rec.recipe_id)).body.count).toBe(2);
    // another user neither sees nor processes them
    expect((await waitingOf(bob, rec.recipe_id)).status).toBe(404);
    expect((await server.call('POST', `/api/automation/recipes/${rec.recipe_id}/waiting/process`, { token: bob.access })).status).toBe(404);
    expect((await server.call('POST', `/api/automation/recipes/${rec.recipe_id}/waiting/skip`, { token: bob.access })).status).toBe(404);
    expect((await waitingOf(alice, rec.recipe_id)).body.count).toBe(2);
    // process: one job each, oldest first, with the file's id
    const processed = await server.call('POST', `/api/automation/recipes/${rec.recipe_id}/waiting/process`, { token: alice.access });
    expect(processed.status).toBe(200);
    expect(processed.body).toEqual({ status: 'ok', processed: 2, started: 2 });
    const jobs = await driveJobs(rec.recipe_id);
    expect(jobs.map((j) => j.payload.data.name)).toEqual([...before, 'after-start.pdf', 'while-stopped-1.pdf', 'while-stopped-2.pdf']);
    expect(jobs.slice(-2).map((j) => j.payload.data.file_id)).toEqual([first, second]);
    expect((await waitingOf(alice, rec.recipe_id)).body).toEqual({ trigger: 'google_drive:new_file_in_folder', count: 0, items: [] });
    await sleep(2500);
    expect((await driveJobs(rec.recipe_id)).length).toBe(jobs.length);
  });

  it('files that arrived while stopped can be skipped: they never run, and the next file does', async () => {
    await startRecipe(server, alice, rec.recipe_id, 'stop');
    await sleep(1500);
    const folder = (await folderOf(rec.recipe_id)).folder_id!;
    const before = (await driveJobs(rec.recipe_id)).length;
    dropIn(ALICE, folder, 'skip-me.pdf');
    await sleep(20);
    expect((await startRecipe(server, alice, rec.recipe_id)).status).toBe(200);
    await waitingCount(1);
    expect((await waitingOf(alice, rec.recipe_id)).body.items.map((i: any) => i.name)).toEqual(['skip-me.pdf']);
    const skipped = await server.call('POST', `/api/automation/recipes/${rec.recipe_id}/waiting/skip`, { token: alice.access });
    expect(skipped.body).toEqual({ status: 'ok', skipped: 1 });
    expect((await waitingOf(alice, rec.recipe_id)).body.count).toBe(0);
    // a second choice has nothing left
    expect((await server.call('POST', `/api/automation/recipes/${rec.recipe_id}/waiting/process`, { token: alice.access })).body).toEqual({
      status: 'ok',
      processed: 0,
      started: 0,
    });
    dropIn(ALICE, folder, 'after-skip.pdf');
    await until('the job of the next file', async () => (await driveJobs(rec.recipe_id)).some((j) => j.payload.data.name === 'after-skip.pdf'));
    await sleep(2500);
    expect((await driveJobs(rec.recipe_id)).slice(before).map((j) => j.payload.data.name)).toEqual(['after-skip.pdf']);
    await startRecipe(server, alice, rec.recipe_id, 'stop');
  });

  it('files already in the folder at the first Start are offered, never run unasked: Process writes their rows; a chosen folder offers its files, Skip runs none', async () => {
    const carol = await createUser(server);
    const at = await widgetToken(server, carol);
    for (const p of ['google_drive', 'google_sheets']) await connect(server, at, p, CAROL);
    const carolRec = await recordOf(server, carol, 1);
    const starter = await recordOf(server, carol, 0);
    // setup prepares the folder and the Sheet (the starter recipe), and starts nothing
    const call = await server.call('POST', webhookPath(carolRec), {
      body: { customer_id: carol.id, email: carol.email, instance: 'test', recipe_id: starter.recipe_id, combination_id: 1 },
    });
    expect(call.status).toBe(200);
    await until('the folder and the Sheet', async () => {
      const t = await folderOf(carolRec.recipe_id);
      return t.folder_id && t.sheet_id ? t : undefined;
    });
    const { folder_id, sheet_id } = await folderOf(carolRec.recipe_id);
    // two invoices put in the new folder before the first Start
    const first = dropIn(CAROL, folder_id!, 'already-1.pdf');
    await sleep(20);
    const secondId = dropIn(CAROL, folder_id!, 'already-2.pdf', second);
    await sleep(2500);
    expect(await driveJobs(carolRec.recipe_id)).toEqual([]);
    expect((await waitingOf(carol, carolRec.recipe_id)).body).toEqual({ trigger: 'google_drive:new_file_in_folder', count: 0, items: [] });
    // Start: the first look offers both, oldest first, saying they were already there; nothing runs
    expect((await startRecipe(server, carol, carolRec.recipe_id)).status).toBe(200);
    await until('2 files offered', async () => (await waitingOf(carol, carolRec.recipe_id)).body.count === 2);
    const offered = (await waitingOf(carol, carolRec.recipe_id)).body;
    expect(offered.items.map((i: any) => [i.key, i.name, i.summary, i.why])).toEqual([
      [first, 'already-1.pdf', 'New file "already-1.pdf" in Google Drive', 'already_there'],
      [secondId, 'already-2.pdf', 'New file "already-2.pdf" in Google Drive', 'already_there'],
    ]);
    await sleep(2500);
    expect(await driveJobs(carolRec.recipe_id)).toEqual([]);
    expect(
      sandbox()
        .state.account(CAROL)
        .spreadsheets.find((s) => s.spreadsheetId === sheet_id)!.rows,
    ).toEqual([]);
    expect((await targets(carol, carolRec.recipe_id)).body.trigger).toMatchObject({ watching: true, waiting: 2, items: 2 });
    // Process: one job each, oldest first, and each file's row under the right headers
    const processed = await server.call('POST', `/api/automation/recipes/${carolRec.recipe_id}/waiting/process`, { token: carol.access });
    expect(processed.body).toEqual({ status: 'ok', processed: 2, started: 2 });
    const jobs = await driveJobs(carolRec.recipe_id);
    expect(jobs.map((j) => [j.payload.data.name, j.payload.data.file_id])).toEqual([
      ['already-1.pdf', first],
      ['already-2.pdf', secondId],
    ]);
    for (const j of jobs)
      expect((await waitForJob(server, carol, j.id, ['succeeded', 'failed'], 60_000)).job).toMatchObject({ status: 'succeeded', error: null });
    // every cell, under its header: the invoice's own values (the two jobs ran side by side: rows in the order they finished)
    const sheet = sheetRecords(CAROL, sheet_id!);
    expect(sheet.header).toEqual([...INVOICE_COLUMNS]);
    const rowOf = (file: string, inv: GeneratedInvoice) => ({
      file,
      invoice_number: inv.data.invoiceNumber,
      invoice_date: inv.data.invoiceDate,
      due_date: inv.data.dueDate,
      vendor_name: inv.data.vendorName,
      vendor_address: inv.data.vendorAddress.join(', '),
      customer_name: inv.data.customerName,
      customer_address: inv.data.customerAddress.join(', '),
      po_number: inv.data.poNumber ?? '',
      payment_terms: inv.data.paymentTerms,
      currency: inv.data.currency,
      subtotal: String(inv.data.subtotal),
      tax: String(inv.data.tax),
      total: String(inv.data.total),
      line_items: inv.data.lines.map((l) => `${l.quantity} × ${l.description} @ ${l.unitPrice.toFixed(2)} = ${l.amount.toFixed(2)}`).join('\n'),
      warnings: '',
    });
    expect([...sheet.records].sort((a, b) => String(a.file).localeCompare(String(b.file)))).toEqual([
      rowOf('already-1.pdf', invoice),
      rowOf('already-2.pdf', second),
    ]);
    expect((await waitingOf(carol, carolRec.recipe_id)).body.count).toBe(0);

    // another folder chosen while it runs: the files already in it are offered the same way; Skip runs none
    const earlier = sandbox().addFile(
      CAROL,
      { name: 'Earlier invoices', mimeType: 'application/vnd.google-apps.folder', parents: ['root'] },
      Buffer.alloc(0),
    ).id;
    const old = dropIn(CAROL, earlier, 'old-invoice.pdf');
    const set = await server.call('PUT', `/api/plugins/connectors/recipes/${carolRec.recipe_id}/targets`, {
      token: carol.access,
      body: { folder_id: earlier },
    });
    expect(set.status).toBe(200);
    await until("the chosen folder's file offered", async () => (await waitingOf(carol, carolRec.recipe_id)).body.count === 1);
    expect((await waitingOf(carol, carolRec.recipe_id)).body.items.map((i: any) => [i.key, i.name, i.why])).toEqual([
      [old, 'old-invoice.pdf', 'already_there'],
    ]);
    const skipped = await server.call('POST', `/api/automation/recipes/${carolRec.recipe_id}/waiting/skip`, { token: carol.access });
    expect(skipped.body).toEqual({ status: 'ok', skipped: 1 });
    await sleep(2500);
    expect((await driveJobs(carolRec.recipe_id)).map((j) => j.payload.data.name)).toEqual(['already-1.pdf', 'already-2.pdf']);
    expect(
      sheetRecords(CAROL, sheet_id!)
        .records.map((r) => r.file)
        .sort(),
    ).toEqual(['already-1.pdf', 'already-2.pdf']);
    // and a file added now runs by itself
    dropIn(CAROL, earlier, 'new-in-earlier.pdf');
    await until("the new file's job", async () => (await driveJobs(carolRec.recipe_id)).length === 3);
    expect((await driveJobs(carolRec.recipe_id)).map((j) => j.payload.data.name)).toEqual(['already-1.pdf', 'already-2.pdf', 'new-in-earlier.pdf']);
    await startRecipe(server, carol, carolRec.recipe_id, 'stop');
  });
});
