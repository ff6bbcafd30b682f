import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import InvoiceExtractionView, { SAMPLE_FAILED_MESSAGE } from '../../../plugins/invoice-extraction/InvoiceExtractionView';
import { renderInShell, testShell } from '../../support/render';
import type { fakeFetch } from '../../support/fake-fetch';
import { fakeFiles } from './support';

const SAMPLE = { url: '/api/files/download?token=s', key: 'sample-1.pdf', bucket: 'uploads', name: 'sample-invoice-acme-42.pdf' };

/** What the server's extraction answers for the bundled sample (tests/server/sample-data proves it on the real file). */
const DONE = {
  Status: 'SUCCEEDED',
  Job_ID: 'invoice-extraction.extract/s1',
  bucket: 'uploads',
  key: 'sample-1.pdf',
  name: 'sample-invoice-acme-42.pdf',
  pages: 1,
  ocr_pages: [],
  fields: [
    { name: 'invoice_number', value: '42', confidence: 0.85 },
    { name: 'invoice_date', value: '2014-01-31', confidence: 0.85, raw: '31.01.2014' },
    { name: 'due_date', value: null, confidence: null },
    { name: 'vendor_name', value: 'Acme GmbH', confidence: 0.85 },
    { name: 'vendor_address', value: 'Europa-Allee 1980, 60486 Frankfurt', confidence: 0.75, raw: 'Europa-Allee 1980\n60486 Frankfurt' },
    { name: 'vendor_vat_id', value: 'DE123456789', confidence: 0.8 },
    { name: 'customer_name', value: 'Karl E. Coyote', confidence: 0.6 },
    { name: 'customer_address', value: 'Uferstraße 113, 88045 Friedrichshafen', confidence: 0.55, raw: 'Uferstraße 113\n88045 Friedrichshafen' },
    { name: 'subtotal', value: 1420, confidence: 0.97, raw: '1.420,00' },
    { name: 'tax', value: 269.8, confidence: 0.55, raw: '269,80' },
    { name: 'total', value: 1589.8, confidence: 0.55, raw: '1.589,80' },
    { name: 'currency', value: 'EUR', confidence: 0.7 },
  ],
  line_items: [
    { description: 'Amboss 250 kg', quantity: 1, unit_price: 1000, amount: 1000, confidence: 1 },
    { description: 'Kette', quantity: 30, unit_price: 10, amount: 300, confidence: 1 },
    { description: 'Transport', unit_price: 120, amount: 120, confidence: 0.8 },
  ],
  warnings: ['Subtotal 1420.00 + tax 269.80 = 1689.80, but the total is 1589.80.'],
};

function setup(routes: Parameters<typeof fakeFetch>[0], path = '/workflow/10004') {
  const shell = testShell({ loggedIn: true, routes });
  const files = fakeFiles(shell);
  renderInShell(<InvoiceExtractionView workflowId={10004} pollMs={5} />, shell, path);
  return { shell, files };
}

async function expectSampleResult() {
  const result = await screen.findByRole('region', { name: 'Extracted invoice' });
  const value = (name: string) => result.querySelector(`[data-field="${name}"]`)!.textContent;
  expect(
    within(result)
      .getAllByRole('term')
      .map((t) => t.textContent),
  ).toEqual([
    'Invoice number',
    'Invoice date',
    'Due date',
    'Vendor name',
    'Vendor address',
    'Vendor VAT ID',
    'Customer name',
    'Customer address',
    'Subtotal',
    'Tax',
    'Total',
    'Currency',
  ]);
  expect(value('invoice_number')).toBe('42' + '85% sure');
  expect(value('vendor_name')).toBe('Acme GmbH' + '85% sure');
  expect(value('customer_name')).toBe('Karl E. Coyote' + '60% sure');
  expect(value('total')).toBe('1,589.80 EUR' + 'check: 55% sure');
  expect(within(result).getByText(DONE.warnings[0])).toBeInTheDocument();
  // the table's sideways scroll is reachable by keyboard on a narrow screen (axe: scrollable-region-focusable)
  expect(within(result).getByRole('region', { name: 'Line items table' })).toHaveAttribute('tabindex', '0');
  const rows = within(within(result).getByRole('table', { name: 'Line items' }))
    .getAllByRole('row')
    .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
  expect(rows).toEqual([
    ['Description', 'Quantity', 'Unit price', 'Amount', 'Confidence'],
    ['Amboss 250 kg', '1', '1,000.00', '1,000.00', '100% sure'],
    ['Kette', '30', '10.00', '300.00', '100% sure'],
    ['Transport', '', '120.00', '120.00', '80% sure'],
  ]);
  expect(await screen.findByRole('img', { name: 'The uploaded invoice sample-invoice-acme-42.pdf, first page' })).toHaveAttribute('src', 'blob:preview-1');
}

describe('InvoiceExtractionView: Try it with a sample invoice (issue 25)', () => {
  it('puts the bundled sample in the user’s files, previews it and runs the real extraction on it, with no file picked', async () => {
    const user = userEvent.setup();
    const { shell, files } = setup({
      'POST /api/plugins/sample-data/invoice': { body: SAMPLE },
      'POST /api/service/extract_data/': { status: 202, body: { Status: 'IN_PROGRESS', Job_ID: DONE.Job_ID, progress: 5, message: 'Reading the document' } },
      'POST /api/plugins/invoice-extraction/status': { body: DONE },
    });
    expect(
      within(screen.getByRole('group', { name: 'Sample invoice' })).getByText('No invoice at hand? Read a real one that comes with the app.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try it with a sample invoice' }));
    await expectSampleResult();
    expect(files.calls.uploads).toEqual([]);
    expect(files.calls.previews).toEqual([{ key: 'sample-1.pdf', bucket: 'uploads' }]);
    const paths = shell.fetch.calls.map((c) => `${c.method} ${c.path}`);
    expect(paths.filter((p) => !p.startsWith('GET '))).toEqual([
      'POST /api/plugins/sample-data/invoice',
      'POST /api/service/extract_data/',
      'POST /api/plugins/invoice-extraction/status',
    ]);
    expect(shell.fetch.calls.find((c) => c.path === '/api/service/extract_data/')?.body).toEqual({ key: 'sample-1.pdf', bucket: 'uploads', wait: 0 });
    expect(screen.getByRole('button', { name: 'Try it with a sample invoice' })).toBeEnabled();
  });

  it('starts at once when opened from the home page link (?sample=invoice), once', async () => {
    const { shell } = setup(
      {
        'POST /api/plugins/sample-data/invoice': { body: SAMPLE },
        'POST /api/service/extract_data/': { body: DONE },
      },
      '/workflow/10004?sample=invoice',
    );
    await expectSampleResult();
    expect(shell.fetch.calls.filter((c) => c.path === '/api/plugins/sample-data/invoice')).toHaveLength(1);
    expect(shell.fetch.calls.filter((c) => c.path === '/api/service/extract_data/')).toHaveLength(1);
  });

  it('says so when the sample cannot be had, and leaves the page usable', async () => {
    const user = userEvent.setup();
    setup({
      'POST /api/plugins/sample-data/invoice': { status: 503, body: { status: 'error', message: 'The server is busy. Please try again in a minute.' } },
    });
    await user.click(screen.getByRole('button', { name: 'Try it with a sample invoice' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The invoice could not be processedThe server is busy. Please try again in a minute.');
    expect(screen.getByRole('button', { name: 'Try it with a sample invoice' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Process Invoice' })).toBeEnabled();
    expect(SAMPLE_FAILED_MESSAGE).toBe('The sample invoice could not be loaded. Please try again in a moment.');
  });
});
