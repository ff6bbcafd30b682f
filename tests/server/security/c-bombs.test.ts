/**
 * Issue 21 (round three), bombs and budgets: a file built to explode is refused with a sentence
 * about the file, in bounded memory, off the request thread.
 */
import financialAnalysis from '../../../plugins/financial-analysis/server';
import { pdfBomb, xlsxBomb } from '../../bench/bombs';
import { startWithTwoUsers, type TestServer, type TestUser } from '../../support/server';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const START = '/api/platform/financial_analysis/start_comparison';
const COMPLETE = '/api/financial-analysis/complete/';
const b64 = (s: Uint8Array) => Buffer.from(s).toString('base64');

describe('decompression bombs sent to financial analysis', () => {
  let server: TestServer, ann: TestUser;
  beforeAll(async () => {
    ({
      server,
      users: [ann],
    } = await startWithTwoUsers({ plugins: [connectorDeclarations, financialAnalysis], env: { WRITE_RATE_LIMIT_PER_USER: '10000' } }));
    await server.call('POST', '/api/platform/financialAnalysisConfig', {
      token: ann.access,
      body: { combination_id: 11, config_json: "{'SELECTED_FOCUS_AREA': 'sales-and-income'}" },
    });
  });
  afterAll(() => server?.close());

  async function analyse(name: string, bytes: Uint8Array) {
    const start = await server.call('POST', START, {
      token: ann.access,
      body: { combination_id: 11, file_name: name, file_binary: b64(bytes), default: false },
    });
    expect(start.status).toBe(200);
    for (let i = 0; i < 240; i++) {
      const res = await server.call('POST', COMPLETE, { token: ann.access, body: { jobId: start.body.jobId } });
      if (res.body.status !== 'RUNNING') return res.body;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the analysis did not finish');
  }

  it('an XLSX whose one cell inflates to 100 MB fails at once with a sentence about the file', async () => {
    const started = Date.now();
    const done = await analyse('bomb.xlsx', xlsxBomb(100));
    expect(done.status).toBe('FAILED');
    expect(done.message).toMatch(/This spreadsheet expands to more than 64 MB when opened, more than a statement may be\./);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('a three-sheet XLSX bomb fails the same way', async () => {
    const done = await analyse('bomb3.xlsx', xlsxBomb(30, 3));
    expect(done.status).toBe('FAILED');
    expect(done.message).toMatch(/expands to more than 64 MB when opened/);
  });

  it('a PDF whose content stream inflates to 80 MB fails with a sentence about the file', async () => {
    const done = await analyse('bomb.pdf', await pdfBomb(80));
    expect(done.status).toBe('FAILED');
    expect(done.message).toBe('"bomb.pdf" could not be read as a PDF: This PDF expands to more than 64 MB when opened, more than an upload may be.');
  });

  it('a CSV of more rows than a statement may have fails with the row budget', async () => {
    const csv = 'Line item,2024\n' + 'Revenue,1\n'.repeat(6000);
    const done = await analyse('long.csv', new TextEncoder().encode(csv));
    expect(done.status).toBe('FAILED');
    expect(done.message).toBe('"long.csv" has more than 5,000 rows, more than a statement may have.');
  });

  it('reading a PDF leaves the global JSON and Array functions as they were', async () => {
    const before = [JSON.stringify, JSON.parse, Array.prototype.push];
    const done = await analyse('bomb.pdf', await pdfBomb(1));
    expect(done.status).not.toBe('RUNNING');
    expect([JSON.stringify, JSON.parse, Array.prototype.push]).toEqual(before);
    expect((globalThis as { pdfjsLib?: unknown }).pdfjsLib).toBeUndefined();
  });
});

describe('pdfjs patches no global', () => {
  it('loading pdfjs in this thread (as plugins that read PDFs directly do) leaves JSON and Array.prototype.push as they were', async () => {
    const before = [JSON.stringify, JSON.parse, Array.prototype.push];
    const { loadPdfjs } = await import('../../../src/server/ai/pdf/pdfjs');
    await loadPdfjs();
    expect([JSON.stringify, JSON.parse, Array.prototype.push]).toEqual(before);
  });
});
