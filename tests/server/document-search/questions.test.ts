import documentSearch, { DocumentIndexerToken } from '../../../plugins/document-search/server';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { upload } from './multipart';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const QUERY = '/api/nlp-document-store/query';

interface Result {
  document: string;
  documentText: string;
  documentUri: string;
}

const AWS = 'Amazon Web Services EMEA SARL. Invoice 2024-117, issued 02.03.2024. Cloud hosting for March. Total due 1.234,56 EUR by 15.04.2024.';
const ACME = 'Acme Ltd invoice 2024-118 for office chairs, issued 05.03.2024. Amount payable 480.00 EUR, payment due 30.04.2024.';
const PLUMBER = 'Hartley Plumbing and Heating. Invoice 77 for repairing the kitchen boiler: labour and parts 215.40 EUR, due on receipt.';
const LEASE = 'Office lease agreement with Northgate Properties: monthly rent 2,100.00 EUR, notice period three months.';

describe('document search answers plain questions (workflow 10011)', () => {
  let server: TestServer;
  let alice: TestUser;

  const search = async (query: string) => {
    const res = await server.call<{ results: Result[] }>('POST', QUERY, { token: alice.access, body: { query } });
    expect(res.status).toBe(200);
    return res.body.results;
  };
  const names = async (query: string) => (await search(query)).map((r) => r.document);
  const uploadText = async (name: string, text: string) => {
    const res = await upload(server, alice.access, { content: Buffer.from(text), filename: name }, '10011');
    expect(res.status).toBe(200);
    await server.container.get(DocumentIndexerToken).settled();
  };

  beforeAll(async () => {
    server = await startTestServer({ plugins: [connectorDeclarations, documentSearch] });
    alice = await createUser(server);
    await uploadText('aws-march.txt', AWS);
    await uploadText('acme-chairs.txt', ACME);
    await uploadText('plumber.txt', PLUMBER);
    await uploadText('lease.txt', LEASE);
  });
  afterAll(() => server.close());

  it('finds the document a question with filler words asks about, its words marked', async () => {
    const [hit, ...rest] = await search('How much did we pay Amazon Web Services?');
    expect(hit.document).toBe('aws-march.txt');
    expect(hit.documentText).toContain('<mark>Amazon</mark> <mark>Web</mark> <mark>Services</mark> EMEA SARL');
    expect(rest).toEqual([]);
    expect(await names('what did the plumber charge')).toEqual(['plumber.txt']);
    // every word of a question is filler: nothing to look for, nothing found
    expect(await names('How much did we pay?')).toEqual([]);
  });

  it('ranks partial matches by how much of the question they hold instead of refusing them', async () => {
    // no document holds all of acme, invoice, due and April: Acme's invoice due in April holds
    // three, the others hold invoice (and AWS's a date in April) and follow, the lease none
    expect(await names('Which invoice from Acme is due in April?')).toEqual(['acme-chairs.txt', 'aws-march.txt', 'plumber.txt']);
    // a name weighs more than a common word: the plumber's invoice before the others'
    expect((await names('invoice from Hartley'))[0]).toBe('plumber.txt');
  });

  it('finds a misspelt word through the closest word of the documents', async () => {
    const [first, ...invoices] = await names('amazn invoice');
    expect(first).toBe('aws-march.txt');
    // then the other invoices, which hold only "invoice"
    expect(invoices.sort()).toEqual(['acme-chairs.txt', 'plumber.txt']);
    expect(await names('plumbng')).toEqual(['plumber.txt']);
  });

  it('weighs a word by how rare it is in the documents, a corrected word by the word it was corrected to', async () => {
    // "clowd" is corrected to "cloud", held by the AWS invoice alone; "office" is in two of the
    // four documents (the chairs and the lease, both newer): the rare word counts more
    const [first, ...others] = await search('clowd office');
    expect(first.document).toBe('aws-march.txt');
    expect(first.documentText).toBe('Amazon Web Services EMEA SARL. Invoice 2024-117, issued 02.03.2024. <mark>Cloud</mark> hosting for March. Total');
    expect(others.map((r) => r.document)).toEqual(['lease.txt', 'acme-chairs.txt']);
    // the same for a rare word spelt right
    expect(await names('cloud office')).toEqual(['aws-march.txt', 'lease.txt', 'acme-chairs.txt']);
  });

  it('matches invoice numbers, amounts however they are written, and dates', async () => {
    expect((await names('invoice 2024-117'))[0]).toBe('aws-march.txt');
    for (const amount of ['1234.56', '1,234.56', '1.234,56']) expect(await names(`paid ${amount}`)).toEqual(['aws-march.txt']);
    expect(await names('rent of 2100.00')).toEqual(['lease.txt']);
    expect(await names('what was due in April 2024')).toEqual(['acme-chairs.txt', 'aws-march.txt', 'plumber.txt']);
  });

  it('gives the same file uploaded twice as one result', async () => {
    const bob = await createUser(server);
    for (let i = 0; i < 2; i++) {
      const res = await upload(server, bob.access, { content: Buffer.from(AWS), filename: 'aws-march.txt' }, '10011');
      expect(res.status).toBe(200);
    }
    await server.container.get(DocumentIndexerToken).settled();
    for (const query of ['Amazon', 'How much did we pay Amazon Web Services?']) {
      const res = await server.call<{ results: Result[] }>('POST', QUERY, { token: bob.access, body: { query } });
      expect(res.body.results.map((r) => r.document)).toEqual(['aws-march.txt']);
    }
  });
});
