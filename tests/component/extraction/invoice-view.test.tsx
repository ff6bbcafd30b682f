import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import InvoiceExtractionView from '../../../plugins/invoice-extraction/InvoiceExtractionView';

import { renderInShell, testShell } from '../../support/render';
import type { fakeFetch } from '../../support/fake-fetch';
import { fakeFiles, fileOf } from './support';

const FIELDS = [
  { name: 'invoice_number', value: 'INV-2024-001', confidence: 0.95 },
  { name: 'invoice_date', value: '2024-03-01', confidence: 0.9 },
  { name: 'due_date', value: null, confidence: null },
  { name: 'vendor_name', value: 'Northwind Traders', confidence: 0.52 },
  { name: 'subtotal', value: 100, confidence: 0.97 },
  { name: 'tax', value: 20, confidence: 0.97 },
  { name: 'total', value: 130, confidence: 0.8 },
  { name: 'currency', value: 'EUR', confidence: 0.9 },
];
const DONE = {
  Status: 'SUCCEEDED',
  Job_ID: 'invoice-extraction.extract/j1',
  bucket: 'uploads',
  key: 'k-1.pdf',
  pages: 25,
  pages_read: 20,
  fields: FIELDS,
  line_items: [
    { description: 'Widgets', quantity: 2, unit_price: 25, amount: 50, confidence: 0.97 },
    { description: 'Gadgets', quantity: 1, unit_price: 50, amount: 50, confidence: 0.9 },
  ],
  warnings: ['Subtotal 100.00 + tax 20.00 = 120.00, but the total is 130.00.'],
};

function setup(routes: Parameters<typeof fakeFetch>[0], path = '/workflow/10004', filesOpts: Parameters<typeof fakeFiles>[1] = {}) {
  const shell = testShell({ loggedIn: true, routes });
  const files = fakeFiles(shell, filesOpts);
  renderInShell(<InvoiceExtractionView workflowId={10004} pollMs={5} />, shell, path);
  return { shell, files };
}

async function uploadInvoice(user: ReturnType<typeof userEvent.setup>, name = 'invoice.pdf') {
  await user.upload(screen.getByLabelText('Invoice file'), fileOf(name, 'application/pdf'));
  await user.click(screen.getByRole('button', { name: 'Upload Invoice' }));
  await screen.findByText(`${name} uploaded.`);
}

describe('InvoiceExtractionView (workflow 10004)', () => {
  it('shows the uploaded image, polls the job with progress, then the fields, confidences, line items and the totals warning', async () => {
    const user = userEvent.setup();
    let polls = 0;
    // The job stays in progress until the test has seen the progress bar: under load, a test that
    // looked for it late could otherwise find the result already shown.
    let barSeen = false;
    const { shell, files } = setup({
      'POST /api/service/extract_data/': {
        status: 202,
        body: { Status: 'IN_PROGRESS', Job_ID: 'invoice-extraction.extract/j1', progress: 5, message: 'Waiting for the document reader' },
      },
      'POST /api/plugins/invoice-extraction/status': () => {
        polls += 1;
        return polls < 2 || !barSeen ? { body: { Status: 'IN_PROGRESS', Job_ID: 'j1', progress: 60, message: 'Reading the document' } } : { body: DONE };
      },
    });
    await uploadInvoice(user);
    const image = await screen.findByRole('img', { name: 'The uploaded invoice invoice.pdf, first page' });
    expect(image).toHaveAttribute('src', 'blob:preview-1');
    expect(files.calls.previews).toEqual([{ key: 'k-1.pdf', bucket: 'uploads' }]);

    await user.click(screen.getByRole('button', { name: 'Process Invoice' }));
    expect(await screen.findByRole('progressbar', { name: "Extracting the invoice's fields" })).toBeInTheDocument();
    barSeen = true;
    const result = await screen.findByRole('region', { name: 'Extracted invoice' });
    expect(
      within(result)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Invoice number', 'Invoice date', 'Due date', 'Vendor name', 'Subtotal', 'Tax', 'Total', 'Currency']);
    const value = (name: string) => result.querySelector(`[data-field="${name}"]`)!.textContent;
    expect(value('invoice_number')).toBe('INV-2024-001' + '95% sure');
    expect(value('due_date')).toBe('Not found');
    expect(value('vendor_name')).toBe('Northwind Traders' + 'check: 52% sure');
    expect(value('total')).toBe('130.00 EUR' + '80% sure');
    expect(within(result).getByTestId('pages-read')).toHaveTextContent('Read the first 20 of 25 pages: the rest of the document was not read.');
    expect(within(result).getByText('Check these values')).toBeInTheDocument();
    expect(within(result).getByText(DONE.warnings[0])).toBeInTheDocument();
    const table = within(result).getByRole('table', { name: 'Line items' });
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Description', 'Quantity', 'Unit price', 'Amount', 'Confidence'],
      ['Widgets', '2', '25.00', '50.00', '97% sure'],
      ['Gadgets', '1', '50.00', '50.00', '90% sure'],
    ]);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    const first = shell.fetch.calls.find((c) => c.path === '/api/service/extract_data/');
    expect(first?.body).toEqual({ key: 'k-1.pdf', bucket: 'uploads', wait: 0 });
  });

  it('stops loading and shows the message when the invoice cannot be read', async () => {
    const user = userEvent.setup();
    setup({
      'POST /api/service/extract_data/': {
        status: 422,
        body: { status: 'error', Status: 'FAILED', message: 'The document could not be read: The PDF is damaged.' },
      },
    });
    await uploadInvoice(user);
    await user.click(screen.getByRole('button', { name: 'Process Invoice' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The document could not be read: The PDF is damaged.');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('hides Run Workflow for combination 1, and disables it until a file is chosen', async () => {
    setup({}, '/workflow/10004?combination=1');
    expect(screen.getByRole('button', { name: 'Process Invoice' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run Workflow' })).not.toBeInTheDocument();
  });

  it("uploads the file to the page's combination's own recipe and follows the job it started to its real result", async () => {
    const user = userEvent.setup();
    let looks = 0;
    const { shell } = setup(
      {
        'GET /api/platform/userByWorkatoRecipe/100001/': {
          body: {
            workato_recipes: [
              { recipe_id: 3, combination: 2 },
              { recipe_id: 7, combination: 8 },
            ],
          },
        },
        'POST /api/automation/recipes/7/uploads': { body: { status: 'ok', job_id: 'job-7' } },
        'GET /api/automation/jobs/job-7': () => {
          looks += 1;
          const done = looks > 1;
          return {
            body: {
              job: { id: 'job-7', status: done ? 'succeeded' : 'running', error: null },
              steps: [
                { index: 0, name: 'Trigger', status: 'succeeded', output_summary: null, error: null },
                {
                  index: 1,
                  name: 'Extract the invoice fields',
                  status: done ? 'succeeded' : 'running',
                  output_summary: done ? 'invoice_number INV-7, total 130.00 EUR' : null,
                  error: null,
                },
              ],
            },
          };
        },
      },
      '/workflow/10004?combination=8',
    );
    expect(screen.getByRole('button', { name: 'Run Workflow' })).toBeDisabled();
    await user.upload(screen.getByLabelText('Invoice file'), fileOf('march.pdf', 'application/pdf'));
    await user.click(screen.getByRole('button', { name: 'Run Workflow' }));
    expect(await screen.findByText(/Running – step 1 of 1 \(Extract the invoice fields\)/)).toBeInTheDocument();
    expect(await screen.findByText('Extract the invoice fields: invoice_number INV-7, total 130.00 EUR', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('The workflow ran')).toBeInTheDocument();
    const upload = shell.fetch.calls.find((c) => c.path === '/api/automation/recipes/7/uploads')!;
    expect(upload.method).toBe('POST');
  });

  it('without a combination: a recipe that takes an uploaded file (not the Drive one); stopped: says so and offers Start, which starts it and runs again', async () => {
    const user = userEvent.setup();
    let started = false;
    const { shell } = setup({
      'GET /api/platform/workflows/10004/': {
        body: {
          id: 10004,
          combinations: [
            { id: 1, running: true },
            { id: 2, running: false },
          ],
        },
      },
      'GET /api/platform/userByWorkatoRecipe/100001/': {
        body: {
          workato_recipes: [
            { recipe_id: 4, combination: 1 },
            { recipe_id: 5, combination: 2 },
          ],
        },
      },
      'GET /api/automation/recipes/4': {
        body: {
          recipe: {
            steps: [
              { kind: 'trigger', provider: 'google_drive', action: 'new_file_in_folder' },
              { kind: 'action', provider: 'google_drive', action: 'download_file' },
            ],
          },
        },
      },
      'GET /api/automation/recipes/5': {
        body: {
          recipe: {
            steps: [
              { kind: 'trigger', provider: 'manual_upload', action: 'file_uploaded' },
              { kind: 'action', provider: 'flowmatic_ai', action: 'extract_invoice_fields' },
            ],
          },
        },
      },
      'POST /api/automation/recipes/5/uploads': () =>
        started
          ? { body: { status: 'ok', job_id: 'job-5' } }
          : { status: 409, body: { status: 'error', message: 'This workflow is stopped: start it, then try again.' } },
      'PUT /api/platform/proxy': () => {
        started = true;
        return { body: { success: true, running: true } };
      },
      'GET /api/automation/jobs/job-5': {
        body: {
          job: { id: 'job-5', status: 'failed', error: 'The invoice could not be read.' },
          steps: [{ index: 1, name: 'Extract the invoice fields', status: 'failed', output_summary: null, error: 'The invoice could not be read.' }],
        },
      },
    });
    await user.upload(screen.getByLabelText('Invoice file'), fileOf('april.pdf', 'application/pdf'));
    await user.click(screen.getByRole('button', { name: 'Run Workflow' }));
    expect(await screen.findByText('Workflow Stopped')).toBeInTheDocument();
    expect(shell.fetch.calls.some((c) => c.path === '/api/automation/recipes/4/uploads')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Start Workflow and run' }));
    expect(await screen.findByText('Extract the invoice fields: The invoice could not be read.')).toBeInTheDocument();
    expect(screen.getByText('The workflow ran and failed')).toBeInTheDocument();
    expect(shell.fetch.calls.find((c) => c.path === '/api/platform/proxy')!.body).toEqual({ url: 'api/managed_users/100001/recipes/5/start' });
  });

  it('says the automation is not set up when the user has no recipe for it', async () => {
    const user = userEvent.setup();
    setup({ 'GET /api/platform/userByWorkatoRecipe/100001/': { body: { workato_recipes: [] } } }, '/workflow/10004?combination=8');
    await user.upload(screen.getByLabelText('Invoice file'), fileOf('may.pdf', 'application/pdf'));
    await user.click(screen.getByRole('button', { name: 'Run Workflow' }));
    expect(await screen.findByText('This workflow cannot run yet: its automation is not set up.')).toBeInTheDocument();
  });

  it('takes an XML e-invoice: the picker and hint name it, one with no PDF has no page to show, and the result says it was read from the file', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const { files } = setup(
      {
        'POST /api/service/extract_data/': {
          body: {
            ...DONE,
            key: 'k-1.xml',
            pages: 0,
            pages_read: 0,
            warnings: [],
            fields: [{ name: 'total', value: 233, confidence: 0.99 }],
            line_items: [],
            e_invoice: { format: 'XRechnung (UBL)', attachment: 'rechnung.xml', standalone: true },
          },
        },
      },
      '/workflow/10004',
      { previewError: { status: 415, message: 'This XML e-invoice carries no PDF: it has no page to show, its data is the invoice.' } },
    );
    const input = screen.getByLabelText('Invoice file');
    expect(input).toHaveAttribute('accept', expect.stringContaining('.xml'));
    expect(screen.getByText('PDF, PNG or JPEG, or an XML e-invoice (XRechnung, Peppol UBL, Factur-X), up to 10 MB.')).toBeInTheDocument();
    // a file of another type is refused before it is sent, naming the e-invoice
    await user.upload(input, fileOf('notes.docx', 'application/msword'));
    expect(await screen.findByText('This file type is not supported: choose a PDF, PNG or JPEG file, or an XML e-invoice.')).toBeInTheDocument();
    await user.upload(input, fileOf('rechnung.xml', 'text/xml'));
    await user.click(screen.getByRole('button', { name: 'Upload Invoice' }));
    await screen.findByText('rechnung.xml uploaded.');
    expect(await screen.findByTestId('no-preview')).toHaveTextContent(
      'rechnung.xml is an XML e-invoice that carries no PDF: it has no page to show, its data is the invoice.',
    );
    expect(files.calls.previews).toEqual([{ key: 'k-1.pdf', bucket: 'uploads' }]);
    expect(screen.queryByText(/The preview could not be shown/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Process Invoice' }));
    const result = await screen.findByRole('region', { name: 'Extracted invoice' });
    expect(within(result).getByText('Read from the e-invoice file')).toBeInTheDocument();
    expect(result).toHaveTextContent(
      'rechnung.xml is an e-invoice in XRechnung (UBL): the values below are its data, checked against its own sums; it carries no page to compare them with.',
    );
    expect(within(result).queryByTestId('pages-read')).not.toBeInTheDocument();
  });

  it('shows the PDF an XML e-invoice carries as its preview', async () => {
    const user = userEvent.setup();
    setup({});
    await user.upload(screen.getByLabelText('Invoice file'), fileOf('efff.xml', 'application/xml'));
    await user.click(screen.getByRole('button', { name: 'Upload Invoice' }));
    const image = await screen.findByRole('img', { name: 'The PDF the e-invoice efff.xml carries, first page' });
    expect(image).toHaveAttribute('src', 'blob:preview-1');
    expect(screen.getByText('efff.xml: the PDF it carries')).toBeInTheDocument();
    expect(screen.queryByTestId('no-preview')).not.toBeInTheDocument();
  });
});
