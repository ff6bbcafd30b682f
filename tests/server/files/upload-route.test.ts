import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { signDownload } from '../../../src/server/files';
import * as T from '../../../src/server/tokens';
import type { DomainEvents } from '../../../src/core/event-bus';
import { CSV, DOCX_LIKE_ZIP, JPEG, PDF, TXT, XLSX, png } from './samples';
import { upload } from '../document-search/multipart';
import { contribute, defineServerPlugin, WorkflowUploads } from '../../../src/server';
import documentExtraction from '../../../plugins/document-extraction/server';
import documentSearch from '../../../plugins/document-search/server';
import financialAnalysis from '../../../plugins/financial-analysis/server';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import invoiceReconciliation from '../../../plugins/invoice-reconciliation/server';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const SECRET = 'test-secret-key-that-is-long-enough-0123456789';
const SAMPLES = { pdf: PDF, png: png(4, 3), jpeg: JPEG, xlsx: XLSX, csv: CSV, txt: TXT };
type Kind = keyof typeof SAMPLES;
const ALLOWED: Record<string, Kind[]> = {
  '10004': ['pdf', 'png', 'jpeg'],
  '10006': ['pdf', 'png', 'jpeg'],
  '10011': ['pdf', 'txt', 'png', 'jpeg'],
  '10012': ['csv'],
  '10013': ['csv', 'xlsx', 'pdf'],
};

describe('POST /api/platform/uploadworkflowfile and the signed download link', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const stored: DomainEvents['file/stored'][] = [];

  beforeAll(async () => {
    // the workflows' plugins declare what their pages upload (WorkflowUploads); the route names none
    server = await startTestServer({
      env: { MAX_UPLOAD_MB: '1' },
      plugins: [connectorDeclarations, invoiceExtraction, documentExtraction, documentSearch, invoiceReconciliation, financialAnalysis],
    });
    server.container
      .get(T.EventBus)
      .on('file/stored')
      .subscribe((e) => stored.push(e));
    alice = await createUser(server);
    bob = await createUser(server);
  });
  afterAll(() => server.close());

  const download = (url: string, token?: string) => server.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

  describe.each(Object.entries(ALLOWED))('workflow %s', (workflow, allowed) => {
    it.each(Object.keys(SAMPLES) as Kind[])('%s', async (kind) => {
      const res = await upload(server, alice.access, { content: SAMPLES[kind], filename: `sample.${kind}` }, workflow);
      if (allowed.includes(kind)) {
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          url: expect.stringMatching(/^\/api\/files\/download\?token=/),
          key: expect.stringMatching(/^[0-9a-f-]{36}\./),
          bucket: 'uploads',
        });
      } else {
        expect(res.status).toBe(415);
        expect(res.body.status).toBe('error');
        expect(res.body.message).toMatch(/^The uploaded file is not an? .+ file/);
      }
    });
  });

  it('checks the kind before storing when the workflow field comes first, with the same answer', async () => {
    const ok = await upload(server, alice.access, { content: CSV, filename: 'po.csv' }, '10012', { workflowFirst: true });
    expect(ok.status).toBe(200);
    const refused = await upload(server, alice.access, { content: PDF, filename: 'po.pdf' }, '10012', { workflowFirst: true });
    expect(refused).toMatchObject({ status: 415, body: { message: 'The uploaded file is not a CSV file (it is a PDF).' } });
  });

  it('decides the kind by content, not by the file name', async () => {
    const res = await upload(server, alice.access, { content: DOCX_LIKE_ZIP, filename: 'sheet.xlsx' }, '10013');
    expect(res.status).toBe(415);
    expect(res.body.message).toContain('not a CSV, XLSX or PDF file');
  });

  it('publishes file/stored and returns a link that downloads the file with its name', async () => {
    stored.length = 0;
    const res = await upload(server, alice.access, { content: TXT, filename: 'Letter to Zoë.txt' }, '10011');
    expect(stored).toEqual([{ owner: alice.id, bucket: 'uploads', key: res.body.key, name: 'Letter to Zoë.txt', kind: 'txt', workflow: '10011' }]);
    const file = await download(res.body.url!);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload).toEqual(TXT);
    expect(file.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="Letter to Zo_.txt"; filename*=UTF-8''${encodeURIComponent('Letter to Zoë.txt')}`);
    // the owner signed in may use it too
    expect((await download(res.body.url!, alice.access)).statusCode).toBe(200);
  });

  it('refuses the link to someone signed in as another user, a forged link and an expired one', async () => {
    const res = await upload(server, alice.access, { content: PDF, filename: 'private.pdf' }, '10006');
    const other = await download(res.body.url!, bob.access);
    expect(other.statusCode).toBe(403);
    expect(JSON.parse(other.body).message).toBe('This download link belongs to another account.');

    // bob re-signs alice's key for himself with a made-up secret, or edits the owner in the token
    const forged = signDownload({ owner: alice.id, bucket: 'uploads', key: res.body.key!, expiresInSec: 60 }, 'not-the-server-secret-at-all');
    expect((await download(`/api/files/download?token=${forged}`)).statusCode).toBe(403);
    const token = decodeURIComponent(res.body.url!.split('token=')[1]);
    const [body, mac] = token.split('.');
    const edited = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), o: bob.id })).toString('base64url');
    expect((await download(`/api/files/download?token=${edited}.${mac}`)).statusCode).toBe(403);

    // a genuine link for bob naming alice's key finds nothing: keys are per owner
    const bobsLink = signDownload({ owner: bob.id, bucket: 'uploads', key: res.body.key!, expiresInSec: 60 }, SECRET);
    expect((await download(`/api/files/download?token=${bobsLink}`)).statusCode).toBe(404);

    const expired = signDownload({ owner: alice.id, bucket: 'uploads', key: res.body.key!, expiresInSec: 60 }, SECRET, Date.now() - 120_000);
    const gone = await download(`/api/files/download?token=${expired}`);
    expect(gone.statusCode).toBe(410);
    expect(JSON.parse(gone.body).message).toBe('This download link has expired; ask for a new one.');

    expect((await download('/api/files/download?token=garbage')).statusCode).toBe(403);
    expect((await download('/api/files/download')).statusCode).toBe(400);
  });

  it('refuses a file over MAX_UPLOAD_MB with the limit in the message, and keeps nothing', async () => {
    stored.length = 0;
    const big = Buffer.alloc(1024 * 1024 + 10, 'a');
    const res = await upload(server, alice.access, { content: big, filename: 'big.txt' }, '10011');
    expect(res).toMatchObject({ status: 413, body: { status: 'error', message: 'The file is larger than the 1 MB limit.' } });
    expect(stored).toEqual([]);
  });

  it('refuses an empty file, a damaged image, an unknown or missing workflow and a missing file', async () => {
    expect(await upload(server, alice.access, { content: Buffer.alloc(0) }, '10011')).toMatchObject({
      status: 400,
      body: { message: 'The uploaded file is empty.' },
    });
    expect(await upload(server, alice.access, { content: png(4, 3).subarray(0, 20) }, '10004')).toMatchObject({
      status: 415,
      body: { message: 'The file looks like a PNG image but it is damaged or incomplete.' },
    });
    expect(await upload(server, alice.access, { content: PDF }, '10002')).toMatchObject({
      status: 400,
      body: { message: 'Workflow "10002" does not take file uploads.' },
    });
    expect(await upload(server, alice.access, { content: PDF }, undefined)).toMatchObject({
      status: 400,
      body: { message: 'Say which workflow the file is for (the workflow field is missing).' },
    });
    const noFile = await server.app.inject({
      method: 'POST',
      url: '/api/platform/uploadworkflowfile',
      payload: '--b\r\nContent-Disposition: form-data; name="workflow"\r\n\r\n10011\r\n--b--\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=b', authorization: `Bearer ${alice.access}` },
    });
    expect(noFile.statusCode).toBe(400);
    expect(JSON.parse(noFile.body).message).toBe('Choose a file to upload (the file field is missing).');
    const json = await server.call('POST', '/api/platform/uploadworkflowfile', { token: alice.access, body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.message).toMatch(/multipart form data/);
  });

  it('needs a login', async () => {
    expect((await upload(server, undefined, { content: TXT }, '10011')).status).toBe(401);
  });
});

describe('the upload route names no workflow: each plugin declares its uploads (WorkflowUploads)', () => {
  let server: TestServer;
  let carol: TestUser;
  const notesPlugin = defineServerPlugin({ id: 'notes-upload-test', contributes: [contribute(WorkflowUploads, { workflow: 77001, kinds: ['txt'] })] });

  beforeAll(async () => {
    server = await startTestServer({ plugins: [notesPlugin] });
    carol = await createUser(server);
  });
  afterAll(() => server.close());

  it("takes a declared workflow's kinds, and refuses a workflow whose plugin is not there", async () => {
    const ok = await upload(server, carol.access, { content: TXT, filename: 'note.txt' }, '77001');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      url: expect.stringMatching(/^\/api\/files\/download\?token=/),
      key: expect.stringMatching(/^[0-9a-f-]{36}\.txt$/),
      bucket: 'uploads',
    });
    const pdf = await upload(server, carol.access, { content: PDF, filename: 'note.pdf' }, '77001');
    expect(pdf.status).toBe(415);
    expect(pdf.body.message).toBe('The uploaded file is not a text file (it is a PDF).');
    expect(await upload(server, carol.access, { content: PDF, filename: 'invoice.pdf' }, '10004')).toMatchObject({
      status: 400,
      body: { status: 'error', message: 'Workflow "10004" does not take file uploads.' },
    });
  });
});
