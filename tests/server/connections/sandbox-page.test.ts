import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { filesQuery } from '../../../plugins/connectors/drive-trigger';
import { createDriveFolder, listDriveFiles } from '../../../plugins/connectors/google-api';
import { SharedSandbox } from '../../../plugins/connectors/providers';
import { DEFAULT_SANDBOX_PORT, SandboxProviders, sandboxListenMessage, sandboxPortDefault } from '../../../plugins/connectors/sandbox/sandbox-server';
import { loadConfig } from '../../../src/server/config';

const SECRET = 'test-secret-key-that-is-long-enough-0123456789';
const CALLBACK = 'http://localhost:3000/api/connections/callback';
const ALICE = 'alice-sandbox@example.com';

/** A Google access token of `account` from the sandbox, through its consent form and PKCE code exchange. */
async function googleToken(sandbox: SandboxProviders, account: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const decision = new URLSearchParams({
    client_id: sandbox.clients.google.clientId,
    redirect_uri: CALLBACK,
    state: 'st',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    scope: 'https://www.googleapis.com/auth/drive',
    account,
    decision: 'allow',
  });
  const back = await fetch(`${sandbox.url}/google/o/oauth2/v2/auth/decision`, { method: 'POST', body: decision, redirect: 'manual' });
  const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
  const token = await fetch(`${sandbox.url}/google/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: sandbox.clients.google.clientId,
      client_secret: sandbox.clients.google.clientSecret,
    }),
  });
  return ((await token.json()) as { access_token: string }).access_token;
}

/** Sends the sandbox page's upload form as a browser does (multipart, hidden account and folder, then the file). */
async function submitUpload(sandbox: SandboxProviders, fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return fetch(`${sandbox.url}/sandbox/upload`, { method: 'POST', body: form, redirect: 'manual' });
}

describe('the sandbox page drops a file from the browser into a Drive folder', () => {
  let dataDir: string;
  let sandbox: SandboxProviders;
  let token: string;
  let folder: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-sandbox-page-'));
    sandbox = new SandboxProviders({ dataDir, secretKey: SECRET, host: '127.0.0.1', port: 0 });
    await sandbox.start();
    sandbox.oauth.registerRedirectUri(CALLBACK);
    token = await googleToken(sandbox, ALICE);
    // as a combination's setup does (prepareTargets): a folder in the user's Drive
    folder = (await createDriveFolder(`${sandbox.url}/google`, token, 'Google Drive Invoices to Google Sheets')).id;
  });
  afterAll(async () => {
    await sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the page shows an upload form for each folder of each account, with the account and folder it drops into', async () => {
    const page = await (await fetch(`${sandbox.url}/`)).text();
    expect(page).toContain(
      `<form method="post" action="/sandbox/upload" enctype="multipart/form-data"><input type="hidden" name="account" value="${ALICE}"><input type="hidden" name="folder" value="${folder}">`,
    );
    expect(page).toContain(
      `<label for="file-${folder}">Drop a file into Google Drive Invoices to Google Sheets:</label> <input type="file" id="file-${folder}" name="file" required> <button type="submit">Put it in the folder</button></form>`,
    );
    expect(page).toContain(`<li id="folder-${folder}"><b>Google Drive Invoices to Google Sheets</b>`);
  });

  it('a file sent through the form is in the folder, the page says so, and the Drive trigger’s list call finds it with its bytes', async () => {
    const since = Date.now() - 1000;
    const bytes = Buffer.from('%PDF-1.4\n% sandbox upload test\n%%EOF\n');
    const res = await submitUpload(sandbox, { account: ALICE, folder }, { name: 'invoice 42.pdf', type: 'application/pdf', bytes });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    const id = /^\/\?dropped=(file_[A-Za-z0-9_-]+)#folder-(.+)$/.exec(location);
    expect(id?.[2]).toBe(encodeURIComponent(folder));

    const page = await (await fetch(`${sandbox.url}${location}`)).text();
    expect(page).toContain(
      `<p role="status" class="done">invoice 42.pdf (${bytes.length} bytes) is now in the folder Google Drive Invoices to Google Sheets. A recipe watching this folder starts a job when it next looks (DRIVE_POLL_INTERVAL_MS, every minute by default).</p>`,
    );

    const listed = await listDriveFiles(`${sandbox.url}/google`, token, filesQuery(folder, since), { orderBy: 'createdTime' });
    expect(listed).toHaveLength(1);
    const f = listed[0];
    expect(f).toEqual({
      kind: 'drive#file',
      id: id![1],
      name: 'invoice 42.pdf',
      mimeType: 'application/pdf',
      parents: [folder],
      createdTime: f.createdTime,
      size: String(bytes.length),
    });
    expect(Date.parse(f.createdTime!)).toBeGreaterThan(since);
    const media = await fetch(`${sandbox.url}/google/drive/v3/files/${f.id}?alt=media`, { headers: { authorization: `Bearer ${token}` } });
    expect(Buffer.from(await media.arrayBuffer()).equals(bytes)).toBe(true);
    // a file listed before (createdTime not after the cursor) is not listed again
    expect(await listDriveFiles(`${sandbox.url}/google`, token, filesQuery(folder, Date.parse(f.createdTime!)), { orderBy: 'createdTime' })).toEqual([]);
  });

  it('refuses, with a sentence and no file added, a form without a file, a folder not in that account, and a request that is not the form', async () => {
    const before = sandbox.state.account(ALICE).files.length;
    const noFile = await submitUpload(sandbox, { account: ALICE, folder });
    expect(noFile.status).toBe(400);
    expect(await noFile.text()).toContain('<p role="alert">Choose a file to put in the folder first.</p><p><a href="/">Back to the sandbox page</a></p>');

    const pdf = { name: 'a.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.4') };
    for (const fields of [
      { account: ALICE, folder: 'file_unknown' },
      { account: 'bob@example.com', folder },
      { account: ALICE, folder: sandbox.state.account(ALICE).files.find((x) => x.mimeType === 'application/pdf')!.id },
    ]) {
      const wrong = await submitUpload(sandbox, fields, pdf);
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toContain(
        '<p role="alert">That folder is no longer in the sandbox Drive. Reload the sandbox page and choose a folder it shows.</p>',
      );
    }
    const json = await fetch(`${sandbox.url}/sandbox/upload`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(400);
    expect(await json.text()).toContain('<p role="alert">Send the form on the sandbox page (a file and its folder).</p>');
    expect(sandbox.state.account(ALICE).files).toHaveLength(before);
    expect(sandbox.state.read().accounts['bob@example.com']).toBeUndefined();
  });
});

describe('the sandbox port', () => {
  it('is 3030 by default outside tests, 0 (any free port) under Jest, and SANDBOX_PORT sets it', async () => {
    expect(DEFAULT_SANDBOX_PORT).toBe(3030);
    expect(sandboxPortDefault({})).toBe(3030);
    expect(sandboxPortDefault({ NODE_ENV: 'production' })).toBe(3030);
    expect(sandboxPortDefault({ NODE_ENV: 'test' })).toBe(0);
    expect(sandboxPortDefault({ JEST_WORKER_ID: '1' })).toBe(0);
  });

  it('a taken port stops the sandbox with a sentence naming the address and SANDBOX_PORT; a free SANDBOX_PORT is used as given', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-sandbox-port-'));
    try {
      const env = { DATA_DIR: dataDir, SECRET_KEY: SECRET, SANDBOX_PORT: String(taken) };
      const shared = new SharedSandbox({});
      await expect(shared.family('google').start({ redirectUri: CALLBACK, config: loadConfig(env, process.cwd()) })).rejects.toThrow(
        `The sandbox providers (local Google and Xero) cannot listen on 127.0.0.1:${taken}: port ${taken} is already in use (another Flowmatic server, or another program). Set SANDBOX_PORT to a free port (0 picks any free port), or stop the program using it.`,
      );
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
      // the port is free now: the same setting starts the sandbox there (a failed start is not remembered)
      const started = await shared.family('google').start({ redirectUri: CALLBACK, config: loadConfig(env, process.cwd()) });
      expect(started.endpoints.drive).toBe(`http://127.0.0.1:${taken}/google`);
      expect(shared.instance!.url).toBe(`http://127.0.0.1:${taken}`);
      await shared.stop();
    } finally {
      if (blocker.listening) blocker.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(sandboxListenMessage('127.0.0.1', 80, Object.assign(new Error('x'), { code: 'EACCES' }))).toBe(
      'The sandbox providers (local Google and Xero) cannot listen on 127.0.0.1:80: there is no permission to use port 80. Set SANDBOX_PORT to a free port (0 picks any free port), or stop the program using it.',
    );
  });
});
