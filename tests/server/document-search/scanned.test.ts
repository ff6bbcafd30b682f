import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import documentSearch from '../../../plugins/document-search/server';
import { NO_TEXT_READ, type ListedDocument } from '../../../plugins/document-search/scan-indexing';
import { renderFirstPagePng } from '../../../src/server';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { upload } from './multipart';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const QUERY = '/api/nlp-document-store/query';
const INDEX = '/api/plugins/document-search/index';
const DOCUMENTS = '/api/plugins/document-search/documents';

/** A real invoice (Apache-2.0, ZUGFeRD/mustangproject; see tests/fixtures/real-invoices/README.md). */
const INVOICE = path.join(__dirname, '../../fixtures/real-invoices/en-cronus-103767-Invoice.pdf');

/** A PDF of one A4 page holding only `png` (no text layer): a scanned invoice as a scanner saves it. */
async function imageOnlyPdf(png: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  const page = doc.addPage([595, 842]);
  page.drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  return Buffer.from(await doc.save());
}

/** A white image with nothing on it. */
function blankPng(): Buffer {
  const canvas = createCanvas(600, 300);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 600, 300);
  return canvas.toBuffer('image/png');
}

interface Result {
  document: string;
  documentText: string;
  documentUri: string;
}

/**
 * Real OCR of rendered pages takes most of this file's time and nothing in it depends on the
 * database engine beyond what the other search tests run on PostgreSQL, so the PostgreSQL run
 * (TEST_DATABASE_URL) skips it; `npm test` runs it on the embedded database.
 */
const suite = process.env.TEST_DATABASE_URL ? describe.skip : describe;

suite('document search of scanned uploads (issue 20)', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let scan: Buffer;

  const search = async (user: TestUser, query: string) => {
    const res = await server.call<{ results: Result[] }>('POST', QUERY, { token: user.access, body: { query } });
    expect(res.status).toBe(200);
    return res.body.results.map((r) => ({ document: r.document, documentText: r.documentText }));
  };
  const list = async (user: TestUser) => {
    const res = await server.call<{ documents: ListedDocument[] }>('GET', DOCUMENTS, { token: user.access });
    expect(res.status).toBe(200);
    return res.body.documents;
  };
  /** Uploads a file to the search page's workflow and asks for it to be indexed, as the page does. */
  const add = async (user: TestUser, content: Buffer, filename: string) => {
    const stored = await upload(server, user.access, { content, filename }, '10011');
    expect(stored.status).toBe(200);
    return server.call('POST', INDEX, { token: user.access, body: { key: stored.body.key, bucket: stored.body.bucket } });
  };
  /** Waits until no document of the list is being read any more. */
  const readAll = async (user: TestUser) => {
    const deadline = Date.now() + 150_000;
    for (;;) {
      const docs = await list(user);
      if (!docs.some((d) => d.status === 'indexing')) return docs;
      if (Date.now() > deadline) throw new Error('The scans were not read within 150 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  beforeAll(async () => {
    server = await startTestServer({ plugins: [connectorDeclarations, documentSearch] });
    alice = await createUser(server);
    bob = await createUser(server);
    // the invoice's first page as a 150 dpi scan (the product's pdfjs + @napi-rs/canvas renderer)
    scan = (await renderFirstPagePng(readFileSync(INVOICE), 150)).png;
  }, 180_000);
  afterAll(() => server.close());

  it('reads an uploaded scan with OCR in a job, lists it as indexing, then finds it by vendor and by invoice number', async () => {
    expect(await add(alice, scan, 'cronus-scan.png')).toMatchObject({ status: 200, body: { document: 'cronus-scan.png', indexing: true } });
    // the request returned before the OCR: the page's list shows the scan being read
    expect(await list(alice)).toEqual([{ document: 'cronus-scan.png', status: 'indexing', progress: 0, uploads: 1 }]);
    expect(await search(alice, 'CRONUS')).toEqual([]);

    expect(await readAll(alice)).toEqual([{ document: 'cronus-scan.png', status: 'searchable', uploads: 1 }]);
    expect(await search(alice, 'CRONUS')).toEqual([
      {
        document: 'cronus-scan.png',
        documentText:
          'Invoice 103767 <mark>cronus</mark>: February 17, 2026 Page 1/1 Adatum Corporation <mark>CRONUS</mark> DE Station Road, 21 Hofstraße 12 48436 Düsseldorf Benrath 20097 Hamburg Deutschland SCAN TO PAY__ Your Reference Salesperson Due Date Payment Terms Detlef Hembrock',
      },
    ]);
    expect(await search(alice, 'invoice 103767')).toEqual([
      {
        document: 'cronus-scan.png',
        documentText:
          '<mark>Invoice</mark> <mark>103767</mark> cronus: February 17, 2026 Page 1/1 Adatum Corporation CRONUS DE Station Road, 21 Hofstraße 12 48436 Düsseldorf Benrath 20097 Hamburg Deutschland SCAN TO PAY__ Your Reference Salesperson Due Date Payment Terms Detlef Hembrock',
      },
    ]);
    expect(await search(bob, 'CRONUS')).toEqual([]);
  }, 200_000);

  it('the same scan uploaded twice is one result, listed with its two uploads', async () => {
    expect(await add(alice, scan, 'cronus-scan.png')).toMatchObject({ status: 200, body: { document: 'cronus-scan.png', indexing: true } });
    expect(await readAll(alice)).toEqual([{ document: 'cronus-scan.png', status: 'searchable', uploads: 2 }]);
    expect((await search(alice, 'Adatum')).map((r) => r.document)).toEqual(['cronus-scan.png']);
    expect((await search(alice, '103767')).map((r) => r.document)).toEqual(['cronus-scan.png']);
  }, 200_000);

  it('reads an image-only PDF (a scanned invoice) page by page with OCR', async () => {
    expect(await add(bob, await imageOnlyPdf(scan), 'cronus-scan.pdf')).toMatchObject({ status: 200, body: { document: 'cronus-scan.pdf', indexing: true } });
    expect(await readAll(bob)).toEqual([{ document: 'cronus-scan.pdf', status: 'searchable', uploads: 1 }]);
    const [hit] = await search(bob, 'CRONUS');
    expect(hit.document).toBe('cronus-scan.pdf');
    expect(hit.documentText).toContain('Adatum Corporation <mark>CRONUS</mark> DE');
    expect((await search(bob, '103767'))[0].documentText).toContain('<mark>103767</mark>');
    expect(await search(alice, 'cronus-scan.pdf')).toEqual([]);
  }, 200_000);

  it('says in the list when OCR finds no text on a scan, and reads it again when asked again', async () => {
    const carol = await createUser(server);
    const stored = await upload(server, carol.access, { content: blankPng(), filename: 'blank.png' }, '10011');
    const again = () => server.call('POST', INDEX, { token: carol.access, body: { key: stored.body.key, bucket: stored.body.bucket } });
    expect(await again()).toMatchObject({ status: 200, body: { document: 'blank.png', indexing: true } });
    expect(await readAll(carol)).toEqual([{ document: 'blank.png', status: 'failed', message: NO_TEXT_READ, uploads: 1 }]);
    expect(await search(carol, 'blank')).toEqual([]);
    // a failed scan is read again (a new job), and fails the same way
    expect(await again()).toMatchObject({ status: 200, body: { document: 'blank.png', indexing: true } });
    expect((await list(carol))[0]).toMatchObject({ document: 'blank.png', status: 'indexing' });
    expect(await readAll(carol)).toEqual([{ document: 'blank.png', status: 'failed', message: NO_TEXT_READ, uploads: 1 }]);
  }, 200_000);
});
