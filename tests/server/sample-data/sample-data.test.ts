import { readFileSync } from 'node:fs';
import type { DomainEvents } from '../../../src/core/event-bus';
import type { FileStore } from '../../../src/server/files';
import * as T from '../../../src/server/tokens';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import sampleData, { SAMPLE_INVOICE_FILE } from '../../../plugins/sample-data/server';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { ScriptedOcr } from '../extraction-routes/support';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

/** What the invoice extraction reads from the bundled sample (the corpus's de-acme_invoice-42.pdf). */
const SAMPLE_FIELDS = {
  invoice_number: '42',
  invoice_date: '2014-01-31',
  due_date: null,
  vendor_name: 'Acme GmbH',
  vendor_address: 'Europa-Allee 1980, 60486 Frankfurt',
  vendor_vat_id: 'DE123456789',
  customer_name: 'Karl E. Coyote',
  customer_address: 'Uferstraße 113, 88045 Friedrichshafen',
  po_number: null,
  subtotal: 1420,
  tax: 269.8,
  total: 1589.8,
  currency: 'EUR',
  payment_terms: null,
};

describe('sample data for a first run (plugins/sample-data)', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const ocr = new ScriptedOcr();
  const stored: DomainEvents['file/stored'][] = [];
  const bytes = readFileSync(SAMPLE_INVOICE_FILE);

  beforeAll(async () => {
    server = await startTestServer({ plugins: [connectorDeclarations, invoiceExtraction, sampleData], overrides: (c) => c.rebind(T.Ocr).toConstantValue(ocr) });
    server.container
      .get(T.EventBus)
      .on('file/stored')
      .subscribe((e) => stored.push(e));
    alice = await createUser(server);
    bob = await createUser(server);
  });
  afterAll(() => server.close());

  it('ships the corpus invoice unchanged', () => {
    expect(bytes.equals(readFileSync('tests/fixtures/real-invoices/de-acme_invoice-42.pdf'))).toBe(true);
  });

  it("puts a copy of the sample in the caller's files, as an upload on workflow 10004 would, and the extraction reads every field", async () => {
    const res = await server.call('POST', '/api/plugins/sample-data/invoice', { token: alice.access });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: expect.stringMatching(/^\/api\/files\/download\?token=[\w.%-]+$/),
      key: expect.stringMatching(/^[0-9a-f-]{36}\.pdf$/),
      bucket: 'uploads',
      name: 'sample-invoice-acme-42.pdf',
    });
    const { key, bucket } = res.body;
    expect(stored).toContainEqual({ owner: alice.id, bucket, key, name: 'sample-invoice-acme-42.pdf', kind: 'pdf', workflow: '10004' });
    const files = server.container.get<FileStore>(T.FileStore);
    expect((await files.read(alice.id, bucket, key)).equals(bytes)).toBe(true);
    await expect(files.read(bob.id, bucket, key)).rejects.toThrow();

    const download = await server.call('GET', res.body.url, { token: alice.access });
    expect(download.status).toBe(200);

    const ex = await server.call('POST', '/api/service/extract_data/', { token: alice.access, body: { key, bucket } });
    expect(ex.status).toBe(200);
    expect(ex.body).toMatchObject({ Status: 'SUCCEEDED', key, bucket, name: 'sample-invoice-acme-42.pdf', pages: 1, pages_read: 1, ocr_pages: [] });
    expect(Object.fromEntries(ex.body.fields.map((f: { name: string; value: unknown }) => [f.name, f.value]))).toEqual(SAMPLE_FIELDS);
    expect(ex.body.line_items).toEqual([
      { description: 'Amboss 250 kg', quantity: 1, unit_price: 1000, amount: 1000, confidence: 1 },
      { description: 'Kette', quantity: 30, unit_price: 10, amount: 300, confidence: 1 },
      { description: 'Transport', unit_price: 120, amount: 120, confidence: 0.8 },
    ]);
    // the sample's printed total really is 100 short of subtotal + tax: the reader says so
    // the sample's embedded ZUGFeRD data is the Konik sample's own (another seller, another total): not used
    expect(ex.body.warnings).toEqual([
      'The e-invoice data in the PDF (ZUGFeRD-invoice.xml) is for invoice 20131122-42, not 42 as the page reads: it was not used.',
      'Subtotal 1420.00 + tax 269.80 = 1689.80, but the total is 1589.80.',
    ]);
    expect(ex.body).not.toHaveProperty('e_invoice');
    expect(ocr.calls).toBe(0);

    // each press is a new copy: the user's files are theirs to delete
    const again = await server.call('POST', '/api/plugins/sample-data/invoice', { token: alice.access });
    expect(again.status).toBe(200);
    expect(again.body.key).not.toBe(key);
  });

  it('refuses an anonymous caller (401) and stores nothing', async () => {
    const before = stored.length;
    const res = await server.call('POST', '/api/plugins/sample-data/invoice', {});
    expect(res.status).toBe(401);
    expect(stored).toHaveLength(before);
  });

  it('serves the sample itself to anyone as a PDF', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/plugins/sample-data/invoice.pdf' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('inline; filename="sample-invoice-acme-42.pdf"');
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });
});
