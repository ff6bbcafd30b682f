import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import documentSearch, { DocumentIndexerToken } from '../../../plugins/document-search/server';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import { DocumentIndexToken } from '../../../plugins/document-search/index-service';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import * as T from '../../../src/server/tokens';
import { PDF } from '../files/samples';
import { upload } from './multipart';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const QUERY = '/api/nlp-document-store/query';
const INDEX = '/api/plugins/document-search/index';

/** A one-page PDF whose text layer holds `lines`. */
async function pdfWith(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 18, size: 12, font }));
  return Buffer.from(await doc.save());
}

interface Result {
  document: string;
  documentText: string;
  documentUri: string;
}

describe('document search (workflow 10011)', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  const search = async (user: TestUser, query: string) => {
    const res = await server.call<{ results: Result[] }>('POST', QUERY, { token: user.access, body: { query } });
    expect(res.status).toBe(200);
    return res.body.results;
  };
  const settled = () => server.container.get(DocumentIndexerToken).settled();
  const uploadText = async (user: TestUser, name: string, text: string) => {
    const res = await upload(server, user.access, { content: Buffer.from(text), filename: name }, '10011');
    expect(res.status).toBe(200);
    await settled();
    return res.body;
  };

  beforeAll(async () => {
    server = await startTestServer({ plugins: [connectorDeclarations, documentSearch, invoiceExtraction] });
    alice = await createUser(server);
    bob = await createUser(server);
    await uploadText(
      alice,
      'march-invoices.txt',
      'The invoices for March were paid late. Our supplier charged a late payment fee, and reconciliation took two days.',
    );
    await uploadText(alice, 'holiday-policy.txt', 'Staff may carry over five days of holiday. Payment in lieu of holiday is not offered.');
    await uploadText(alice, 'late-late.txt', 'Late again: the late delivery of a late order caused late invoices, late payment and a late reconciliation.');
    await uploadText(bob, 'bob-secret-invoices.txt', 'Bob’s invoices for March are private: payment schedule and reconciliation notes.');
  });
  afterAll(() => server.close());

  it('indexes an upload and finds it with its passage, matched words marked, and a link to the file', async () => {
    const [hit] = await search(alice, 'supplier');
    expect(hit.document).toBe('march-invoices.txt');
    expect(hit.documentText).toContain('Our <mark>supplier</mark> charged a late payment fee');
    const file = await server.app.inject({ method: 'GET', url: hit.documentUri });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('Our supplier charged a late payment fee');
  });

  it('stems English words: "invoice" finds "invoices", "delivered" finds "delivery"', async () => {
    expect((await search(alice, 'invoice')).map((r) => r.document).sort()).toEqual(['late-late.txt', 'march-invoices.txt']);
    expect((await search(alice, 'delivered')).map((r) => r.document)).toEqual(['late-late.txt']);
    expect((await search(alice, 'holidays')).map((r) => r.document)).toEqual(['holiday-policy.txt']);
  });

  it('matches the last word as a prefix', async () => {
    expect((await search(alice, 'reconc')).map((r) => r.document).sort()).toEqual(['late-late.txt', 'march-invoices.txt']);
    const [hit] = await search(alice, 'supplier char');
    expect(hit.documentText).toContain('<mark>charged</mark>');
  });

  it('understands "quoted phrases", OR and -excluded words', async () => {
    expect((await search(alice, '"late payment fee"')).map((r) => r.document)).toEqual(['march-invoices.txt']);
    expect((await search(alice, '"fee late payment"')).map((r) => r.document)).toEqual([]);
    expect((await search(alice, 'supplier or holiday')).map((r) => r.document).sort()).toEqual(['holiday-policy.txt', 'march-invoices.txt']);
    expect((await search(alice, 'payment -holiday')).map((r) => r.document).sort()).toEqual(['late-late.txt', 'march-invoices.txt']);
  });

  it('ranks the document that matches more densely first', async () => {
    expect((await search(alice, 'late payment')).map((r) => r.document)).toEqual(['late-late.txt', 'march-invoices.txt']);
  });

  it("never returns another user's documents", async () => {
    expect((await search(alice, 'private schedule')).length).toBe(0);
    expect((await search(bob, 'invoices')).map((r) => r.document)).toEqual(['bob-secret-invoices.txt']);
    expect((await search(bob, 'supplier')).length).toBe(0);
  });

  it("refuses to index another user's file: it is not found", async () => {
    const own = await upload(server, alice.access, { content: Buffer.from('Quarterly budget review notes.'), filename: 'budget.txt' }, '10011');
    const res = await server.call('POST', INDEX, { token: bob.access, body: { key: own.body.key, bucket: own.body.bucket } });
    expect(res).toMatchObject({ status: 404, body: { status: 'error', message: 'The file was not found.' } });
    expect(await search(bob, 'budget')).toEqual([]);
  });

  it("indexes the text other plugins extract ('document/text-extracted')", async () => {
    server.container.get(T.EventBus).publish('document/text-extracted', {
      owner: alice.id,
      bucket: 'uploads',
      key: 'scan.png',
      name: 'Scanned receipt',
      text: 'Receipt from Café Nero: two flat whites.',
    });
    await settled();
    const [hit] = await search(alice, 'whites');
    expect(hit).toMatchObject({ document: 'Scanned receipt', documentText: 'Receipt from Café Nero: two flat <mark>whites</mark>' });
  });

  it('reads the text layer of an uploaded PDF and says when it is missing or not searchable', async () => {
    const pdf = await upload(
      server,
      alice.access,
      { content: await pdfWith(['Service agreement with Globex Corporation', 'Termination requires ninety days notice.']), filename: 'agreement.pdf' },
      '10011',
    );
    expect(await server.call('POST', INDEX, { token: alice.access, body: { key: pdf.body.key, bucket: pdf.body.bucket } })).toMatchObject({
      status: 200,
      body: { document: 'agreement.pdf', words: 10 },
    });
    await settled();
    expect((await search(alice, 'termination notice')).map((r) => r.document)).toEqual(['agreement.pdf']);

    const blank = await upload(server, alice.access, { content: PDF, filename: 'blank.pdf' }, '10011');
    expect(await server.call('POST', INDEX, { token: alice.access, body: { key: blank.body.key, bucket: blank.body.bucket } })).toMatchObject({
      status: 422,
      body: { status: 'error', message: 'The PDF has no pages.' },
    });
    const broken = await upload(server, alice.access, { content: Buffer.from('%PDF-1.7\nthis is not really a pdf'), filename: 'broken.pdf' }, '10011');
    const res = await server.call('POST', INDEX, { token: alice.access, body: { key: broken.body.key, bucket: broken.body.bucket } });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^The PDF could not be read/);

    const files = server.container.get(T.FileStore);
    const csv = await files.put(alice.id, Buffer.from('date,amount\n2024-01-02,10.00\n'), { originalName: 'amounts.csv', allowed: ['csv'], maxBytes: 1024 });
    expect(await server.call('POST', INDEX, { token: alice.access, body: { key: csv.key, bucket: csv.bucket } })).toMatchObject({
      status: 415,
      body: { status: 'error', message: 'Only PDF, text, image (PNG or JPEG) and XML e-invoice files can be added to the search; this file is none of these.' },
    });
    await settled();
  });

  it('indexes an XML e-invoice by its data and the page of the PDF it carries, and says when it is no e-invoice', async () => {
    // a real Belgian e-fff UBL invoice from OCA/edi's tests (tests/fixtures/e-invoices), uploaded on the search page
    const efff = readFileSync(path.join(__dirname, '../../fixtures/e-invoices/efff-16117778-ubl-with-pdf.xml'));
    const up = await upload(server, alice.access, { content: efff, filename: 'efff-16117778.xml' }, '10011');
    expect(up.status).toBe(200);
    await settled();
    // a word of the data (the seller's town) and a word only its page prints ("Crediteurenadministratie")
    expect((await search(alice, 'Wemmel')).map((r) => r.document)).toEqual(['efff-16117778.xml']);
    expect((await search(alice, 'Crediteurenadministratie')).map((r) => r.document)).toEqual(['efff-16117778.xml']);
    const [hit] = await search(alice, 'Exact voor Boekhouden');
    expect(hit.documentText).toContain('<mark>Boekhouden</mark>');
    expect(hit.documentText).not.toMatch(/JVBER/); // the PDF's base64 is not text to search
    // the index call answers the same file with its word count
    const again = await server.call('POST', INDEX, { token: alice.access, body: { key: up.body.key, bucket: up.body.bucket } });
    expect(again).toMatchObject({ status: 200, body: { document: 'efff-16117778.xml', words: expect.any(Number) } });
    // XML that is no e-invoice is taken as the text it is
    const feed = await upload(server, alice.access, { content: Buffer.from('<rss><title>Quarterly newsletter</title></rss>'), filename: 'feed.xml' }, '10011');
    expect(feed.status).toBe(200);
    await settled();
    expect((await search(alice, 'newsletter')).map((r) => r.document)).toEqual(['feed.xml']);
  });

  it('indexes the page of an XML e-invoice that carries an annex before it, not the annex', async () => {
    const efff = readFileSync(path.join(__dirname, '../../fixtures/e-invoices/efff-16117778-ubl-with-pdf.xml')).toString('utf8');
    const annex = (await pdfWith(['Timesheet April', 'Zebrafinch project: 12 hours'])).toString('base64');
    const annexFirst = efff.replace(
      '<cac:AdditionalDocumentReference>',
      `<cac:AdditionalDocumentReference><cbc:ID>1</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="timesheet.pdf">${annex}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference><cac:AdditionalDocumentReference>`,
    );
    const up = await upload(server, bob.access, { content: Buffer.from(annexFirst), filename: 'efff-with-timesheet.xml' }, '10011');
    expect(up.status).toBe(200);
    await settled();
    // as the extraction reads it: the data and the invoice's own page, whose text later replaces this
    expect((await search(bob, 'Crediteurenadministratie')).map((r) => r.document)).toEqual(['efff-with-timesheet.xml']);
    expect(await search(bob, 'Zebrafinch')).toEqual([]);
  });

  it('re-indexing the same file replaces it rather than duplicating it', async () => {
    const index = server.container.get(DocumentIndexToken);
    await index.index({ owner: bob.id, bucket: 'uploads', key: 'k.txt', name: 'v1', text: 'alpha version' });
    await index.index({ owner: bob.id, bucket: 'uploads', key: 'k.txt', name: 'v2', text: 'beta version' });
    expect((await search(bob, 'version')).map((r) => r.document)).toEqual(['v2']);
  });

  it('refuses an empty or missing query, and anonymous callers', async () => {
    for (const body of [{ query: '' }, {}, { query: 'x'.repeat(301) }]) {
      const res = await server.call('POST', QUERY, { token: alice.access, body });
      expect(res).toMatchObject({ status: 400, body: { status: 'error', message: 'Please enter a search query (up to 300 characters).' } });
    }
    expect(await server.call('POST', QUERY, { token: alice.access, body: { query: '   ' } })).toMatchObject({
      status: 400,
      body: { message: 'Please enter a search query.' },
    });
    expect((await server.call('POST', QUERY, { body: { query: 'invoice' } })).status).toBe(401);
    expect((await server.call('POST', INDEX, { body: { key: 'a', bucket: 'uploads' } })).status).toBe(401);
  });

  it('answers a query of stop words only with no results rather than an error', async () => {
    expect(await search(alice, 'the of and')).toEqual([]);
  });
});
