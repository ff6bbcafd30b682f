import { PDFDocument, StandardFonts } from 'pdf-lib';
import financialAnalysis from '../../../plugins/financial-analysis/server';
import { startWithTwoUsers, type TestServer, type TestUser } from '../../support/server';
import { STATEMENT_CSV as CSV } from '../../support/finance/statement';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const CONFIG = '/api/platform/financialAnalysisConfig';
const START = '/api/platform/financial_analysis/start_comparison';
const COMPLETE = '/api/financial-analysis/complete/';

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');

async function pdfWith(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 20, size: 11, font }));
  return doc.save();
}

describe('financial analysis routes', () => {
  let server: TestServer, ann: TestUser, bob: TestUser;
  beforeAll(
    async () =>
      ({
        server,
        users: [ann, bob],
      } = await startWithTwoUsers({ plugins: [connectorDeclarations, financialAnalysis], env: { MAX_UPLOAD_MB: '1' } })),
  );
  afterAll(() => server?.close());

  async function waitFor(token: string, wfId: string) {
    for (let i = 0; i < 200; i++) {
      const res = await server.call('POST', COMPLETE, { token, body: { jobId: { wf_id: wfId } } });
      if (res.status !== 200 || res.body.status !== 'RUNNING') return res;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the analysis did not finish');
  }

  it('saves the focus area as SELECTED_FOCUS_AREA (create, then update)', async () => {
    const created = await server.call('POST', CONFIG, {
      token: ann.access,
      body: { combination_id: 11, config_json: "{'SELECTED_FOCUS_AREA': 'cash-flow-management'}" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'success', combination_id: 11, config_json: "{'SELECTED_FOCUS_AREA': 'cash-flow-management'}" });
    const updated = await server.call('PUT', `${CONFIG}/${created.body.id}/`, {
      token: ann.access,
      body: { combination_id: 11, config_json: "{'SELECTED_FOCUS_AREA': 'sales-and-income'}" },
    });
    expect(updated.body.config_json).toBe("{'SELECTED_FOCUS_AREA': 'sales-and-income'}");
    const bad = await server.call('POST', CONFIG, { token: bob.access, body: { combination_id: 11, config_json: "{'SELECTED_FOCUS_AREA': 'astrology'}" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Please choose a focus area.');
    expect((await server.call('GET', `${CONFIG}/${created.body.id}/`, { token: bob.access })).status).toBe(404);
  });

  it('refuses a test before a focus area is saved', async () => {
    const res = await server.call('POST', START, { token: bob.access, body: { combination_id: 11, file_name: 'accounts.csv', file_binary: b64(CSV) } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Save a focus area first: the test uses the saved config.');
  });

  it('runs the default and the custom job to COMPLETE with both reports', async () => {
    const start = await server.call('POST', START, {
      token: ann.access,
      body: { combination_id: 11, file_name: 'accounts.csv', file_binary: b64(CSV), default: true },
    });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ status: 'RUNNING', jobId: { wf_id: expect.any(String) } });
    const done = await waitFor(ann.access, start.body.jobId.wf_id);
    expect(done.body.status).toBe('COMPLETE');
    const { default: byDefault, custom_config: custom } = done.body.report;
    expect(byDefault.focus_area).toBe('overall-financial-position');
    expect(custom.focus_area).toBe('sales-and-income');
    expect(custom.periods).toEqual(['FY2023', 'FY2024']);
    expect(custom.lineItems.find((l: { id: string }) => l.id === 'revenue').values).toEqual([1_000_000, 1_200_000]);
    expect(custom.ratios.find((r: { id: string }) => r.id === 'revenueGrowth').values[1]).toBeCloseTo(0.2, 4);
    expect(custom.findings.length).toBeGreaterThan(0);
    expect(custom.chart.series.map((s: { name: string }) => s.name)).toContain('Revenue');

    // only the owner may read the run
    const other = await server.call('POST', COMPLETE, { token: bob.access, body: { jobId: { wf_id: start.body.jobId.wf_id } } });
    expect(other.status).toBe(404);
  });

  it('reads a PDF statement through its text layer (default: false runs only the custom job)', async () => {
    const pdf = await pdfWith([
      'Income statement',
      'Line item 2024 2023',
      'Revenue 500,000 400,000',
      'Cost of sales 300,000 260,000',
      'Net income 60,000 40,000',
    ]);
    const start = await server.call('POST', START, {
      token: ann.access,
      body: { combination_id: 11, file_name: 'report.pdf', file_binary: b64(pdf), default: false },
    });
    const done = await waitFor(ann.access, start.body.jobId.wf_id);
    expect(done.body.status).toBe('COMPLETE');
    expect(done.body.report.default).toBeNull();
    expect(done.body.report.custom_config.lineItems.find((l: { id: string }) => l.id === 'revenue').values).toEqual([400_000, 500_000]);
    expect(done.body.report.custom_config.unreadable.join(' ')).toMatch(/No current assets line was found/);
  });

  it('fails a file with no figures, naming what could not be read', async () => {
    const start = await server.call('POST', START, {
      token: ann.access,
      body: { combination_id: 11, file_name: 'notes.csv', file_binary: b64('Name,Colour\nAda,blue\nBob,green\n') },
    });
    expect(start.status).toBe(200);
    const done = await waitFor(ann.access, start.body.jobId.wf_id);
    expect(done.body.status).toBe('FAILED');
    expect(done.body.message).toMatch(/No financial line items were recognised in "notes\.csv"/);
  });

  it('refuses a kind of file it cannot read, and an oversize one', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const wrong = await server.call('POST', START, { token: ann.access, body: { combination_id: 11, file_name: 'photo.png', file_binary: b64(png) } });
    expect(wrong.status).toBe(415);
    const big = await server.call('POST', START, {
      token: ann.access,
      body: { combination_id: 11, file_name: 'big.csv', file_binary: b64('x'.repeat(1_100_000)) },
    });
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('"big.csv" is too large: the limit is 1 MB per file.');
  });

  it('validates the status request', async () => {
    const res = await server.call('POST', COMPLETE, { token: ann.access, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Please say which analysis to fetch: start the analysis again if the page was reloaded.');
    expect((await server.call('POST', COMPLETE, { token: ann.access, body: { wf_id: 'nope' } })).status).toBe(404);
  });
});
