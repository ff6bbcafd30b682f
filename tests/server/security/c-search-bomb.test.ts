/**
 * Document search reads PDFs in the bounded worker (plugins/document-search/pdf-text.ts through
 * readPdfBounded): a PDF bomb added to the search is refused with a sentence about the file, and
 * the server keeps answering while it is being refused; the request thread never loads pdfjs.
 */
import documentSearch, { DocumentIndexerToken } from '../../../plugins/document-search/server';
import { pdfBomb } from '../../bench/bombs';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { upload } from '../document-search/multipart';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const QUERY = '/api/nlp-document-store/query';
const INDEX = '/api/plugins/document-search/index';

describe('a PDF bomb sent to document search', () => {
  let server: TestServer;
  let alice: TestUser;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [connectorDeclarations, documentSearch] });
    alice = await createUser(server);
    const text = await upload(server, alice.access, { content: Buffer.from('The supplier contract renews in March.'), filename: 'contract.txt' }, '10011');
    expect(text.status).toBe(200);
    await server.container.get(DocumentIndexerToken).settled();
  });
  afterAll(() => server.close());

  it('is refused with a 422 naming the problem, while searches keep being answered, and pdfjs stays out of this thread', async () => {
    const before = [JSON.stringify, JSON.parse, Array.prototype.push];
    const bomb = await upload(server, alice.access, { content: Buffer.from(await pdfBomb(80)), filename: 'bomb.pdf' }, '10011');
    expect(bomb.status).toBe(200);
    const indexing = server.call('POST', INDEX, { token: alice.access, body: { key: bomb.body.key, bucket: bomb.body.bucket } });
    // the server answers other requests while the bomb is read (off the request thread)
    const started = Date.now();
    const answer = await server.call<{ results: Array<{ document: string }> }>('POST', QUERY, { token: alice.access, body: { query: 'supplier contract' } });
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((r) => r.document)).toEqual(['contract.txt']);
    expect(Date.now() - started).toBeLessThan(2_000);

    const res = await indexing;
    expect(res).toMatchObject({ status: 422, body: { message: 'This PDF expands to more than 64 MB when opened, more than an upload may be.' } });
    await server.container.get(DocumentIndexerToken).settled();
    expect(
      (await server.call<{ results: Array<{ document: string }> }>('POST', QUERY, { token: alice.access, body: { query: 'revenue' } })).body.results,
    ).toEqual([]);
    expect([JSON.stringify, JSON.parse, Array.prototype.push]).toEqual(before);
    expect((globalThis as { pdfjsWorker?: unknown }).pdfjsWorker).toBeUndefined();
  });
});
