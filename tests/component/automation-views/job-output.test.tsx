import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import TriggerConnectorView from '../../../plugins/automation-views/TriggerConnectorView';
import BasicView from '../../../plugins/automation-views/BasicView';
import { RERUN_STOPPED } from '../../../plugins/automation-views/JobsPanel';
import { renderRoute } from '../catalogue/harness';
import { WEBHOOK, job, recipeIdOf, setupShell, step, type Scenario } from './harness';

function show(sc: Scenario, query = '') {
  const shell = setupShell(sc);
  const id = sc.combinationId;
  renderRoute(shell, '/solutions/combinations/workflow/:id', <TriggerConnectorView combinationId={id} />, `/solutions/combinations/workflow/${id}${query}`);
  return shell;
}

const SHEETS = [{ id: 3, name: 'Google Sheets', provider: 'google_sheets', authorization_status: 'success' }];

const EXTRACTED = {
  name: 'invoice-1001.pdf',
  fields: { invoice_number: 'INV-1001', due_date: null, total: 2040, currency: 'GBP' },
  confidence: { invoice_number: 0.95, total: 0.45, currency: 0.9 },
  warnings: ['The total does not equal the subtotal plus tax.'],
};

const steps = [
  step(0, {
    name: 'E-mail received',
    output_summary: 'E-mail with 1 file',
    output_details: [{ title: 'E-mail', items: [{ label: 'File', value: 'invoice-1001.pdf (2,048 bytes)' }] }],
    output: { source: 'manual_email', data: {}, files: [] },
  }),
  step(1, {
    name: 'Extract the invoice fields',
    output_summary: 'Read from invoice-1001.pdf: Invoice number INV-1001, Total 2040 (needs a look), Currency GBP; missing: Due date',
    output_details: [
      {
        title: 'Read from invoice-1001.pdf',
        items: [
          { label: 'Invoice number', value: 'INV-1001' },
          { label: 'Due date', value: 'not found', state: 'missing' },
          { label: 'Total', value: '2040', state: 'check' },
          { label: 'Currency', value: 'GBP' },
        ],
        notes: ['The total does not equal the subtotal plus tax.'],
      },
    ],
    output: EXTRACTED,
  }),
  step(2, {
    name: 'Add a row to Google Sheets',
    output_details: [
      {
        title: 'Row written to the Sheet, Sheet1!A2:C2',
        items: [
          { label: 'file', value: 'invoice-1001.pdf' },
          { label: 'invoice_number', value: 'INV-1001' },
          { label: 'total', value: '2040' },
        ],
      },
    ],
    output: { rows: [{ file: 'invoice-1001.pdf', invoice_number: 'INV-1001', total: 2040 }], range: 'Sheet1!A2:C2' },
  }),
];

describe('the job view: what each step produced, the full output one click away', () => {
  it('shows the fields read (name: value), flags the missing and uncertain ones, the warnings and the row written; the JSON behind a disclosure', async () => {
    const done = job('j-5', { title: 'Invoice Extraction from E-mail to Google Sheets' });
    show(
      { combinationId: 8, running: true, connections: SHEETS, jobs: [done], extra: { 'GET /api/automation/jobs/j-5': { body: { job: done, steps } } } },
      '?job=j-5',
    );
    const list = await screen.findByRole('list', { name: 'Steps' });
    const items = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === list);
    expect(items).toHaveLength(3);

    const extract = items[1];
    expect(within(extract).getByText('Read from invoice-1001.pdf')).toBeInTheDocument();
    const pairs = (root: HTMLElement) =>
      within(root)
        .getAllByRole('term')
        .map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`);
    expect(pairs(extract)).toEqual(expect.arrayContaining(['Invoice number: INV-1001', 'Due date: not found', 'Total: 2040 needs a look', 'Currency: GBP']));
    expect(within(within(extract).getByRole('list', { name: 'Warnings' })).getByText('The total does not equal the subtotal plus tax.')).toBeInTheDocument();
    expect(pairs(items[2])).toEqual(expect.arrayContaining(['file: invoice-1001.pdf', 'invoice_number: INV-1001', 'total: 2040']));
    expect(within(items[2]).getByText('Row written to the Sheet, Sheet1!A2:C2')).toBeInTheDocument();
    expect(extract).not.toHaveTextContent('undefined');

    // the full output: a native disclosure (a focusable summary, opened by Enter or Space), closed at first
    const summary = within(extract).getByText('Full output').closest('summary')!;
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    expect(summary.tabIndex).toBe(0);
    fireEvent.click(summary);
    await waitFor(() => expect(details.open).toBe(true));
    expect(JSON.parse(within(details).getByText(/"invoice_number"/).textContent!)).toEqual(EXTRACTED);
  });

  it('a stopped workflow: Run again is unavailable and says why', async () => {
    const failed = job('j-6', { status: 'failed', error: 'Step 1 failed.' });
    const shell = show(
      {
        combinationId: 8,
        running: false,
        connections: SHEETS,
        jobs: [failed],
        extra: {
          'GET /api/automation/jobs/j-6': { body: { job: failed, steps: [step(0), step(1, { status: 'failed', error: 'Step 1 failed.' })] } },
          'POST /api/automation/jobs/j-6/rerun': {
            status: 409,
            body: { status: 'error', message: 'This workflow is stopped, so it cannot run again: start it, then press Run again.' },
          },
        },
      },
      '?job=j-6',
    );
    const button = await screen.findByRole('button', { name: 'Run again' });
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(button).toHaveAccessibleDescription(RERUN_STOPPED);
    expect(screen.getByText(RERUN_STOPPED)).toBeInTheDocument();
    fireEvent.click(button);
    expect(shell.calls('POST', '/api/automation/jobs/j-6/rerun')).toHaveLength(0);
  });
});

describe('a step whose whole result is kept as a file', () => {
  const FILE = { bucket: 'automation', key: 'k-77.xlsx', name: 'reconciliation-invoices.xlsx', kind: 'xlsx', size: 633_086 };
  const reconcile = [
    step(0, { name: 'Files uploaded', output: { source: 'webhook', data: {}, files: [] } }),
    step(1, {
      name: 'Reconcile the invoices',
      output_summary: 'Result kept as a file: Result reconciliation-invoices.xlsx (633,086 bytes), Discrepancy count 8000, Unmatched count 4000',
      output_details: [
        {
          title: 'Result kept as a file',
          items: [
            { label: 'Result', value: 'reconciliation-invoices.xlsx (633,086 bytes)' },
            { label: 'Discrepancy count', value: '8000' },
            { label: 'Unmatched count', value: '4000' },
          ],
        },
      ],
      output: {
        subject: 'Reconciliation of invoices.csv: 8000 discrepancies, 4000 unmatched',
        discrepancy_count: 8000,
        unmatched_count: 4000,
        result_file: FILE,
      },
    }),
  ];

  it('shows the summary and downloads the workbook through a fresh link', async () => {
    const done = job('j-7', { title: 'Invoice Reconciliation' });
    const link = `/api/automation/jobs/j-7/files/link?bucket=automation&key=k-77.xlsx`;
    const shell = show(
      {
        combinationId: 8,
        running: true,
        connections: SHEETS,
        jobs: [done],
        extra: {
          'GET /api/automation/jobs/j-7': { body: { job: done, steps: reconcile } },
          [`GET ${link}`]: { body: { name: FILE.name, url: '/api/files/download?token=t1' } },
        },
      },
      '?job=j-7',
    );
    const list = await screen.findByRole('list', { name: 'Steps' });
    const item = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === list)[1];
    expect(within(item).getByText('Result kept as a file')).toBeInTheDocument();
    expect(
      within(item)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(['reconciliation-invoices.xlsx (633,086 bytes)', '8000', '4000']);
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.getAttribute('href')} ${this.download}`);
    });
    fireEvent.click(within(item).getByRole('button', { name: 'Download reconciliation-invoices.xlsx' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]).toMatch(/\/api\/files\/download\?token=t1 reconciliation-invoices\.xlsx$/);
    expect(shell.calls('GET', link)).toHaveLength(1);
    click.mockRestore();
  });
});

describe('the webhook payload panel on the setup screen', () => {
  const rid = recipeIdOf(1);
  const payload = {
    schema: {
      title: 'Webhook call naming a Google Drive file',
      description: 'Runs the recipe on one file of the connected Google Drive, as a new file in the watched folder would.',
      type: 'object',
      required: ['file_id'],
      properties: { file_id: { type: 'string', description: 'the id of the Google Drive file to process', examples: ['1AbC'] } },
    },
    example: { file_id: '1AbC' },
  };

  it("shows each field, the expected JSON and a copyable curl command with the recipe's own webhook address", async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    const recipeRoute = `GET /api/automation/recipes/${rid}`;
    show({
      combinationId: 1,
      running: true,
      extra: {
        [recipeRoute]: () => ({
          body: {
            recipe: {
              id: rid,
              combination_id: 1,
              name: 'Drive',
              status: 'complete',
              running: true,
              job_succeeded_count: 0,
              job_failed_count: 0,
              webhook_url: WEBHOOK(1),
              inbound_email: null,
              webhook_payload: payload,
              steps: [],
            },
          },
        }),
      },
    });
    const panel = await screen.findByRole('region', { name: 'Webhook payload' });
    expect(within(panel).getByText(payload.schema.description)).toBeInTheDocument();
    const fields = within(panel).getByLabelText('Payload fields');
    expect(within(fields).getByRole('term')).toHaveTextContent('file_id');
    expect(within(fields).getByRole('definition')).toHaveTextContent('required, text: the id of the Google Drive file to process');
    expect(JSON.parse(within(panel).getByLabelText('Expected JSON').textContent!)).toEqual({ file_id: '1AbC' });
    const curl = `curl -X POST '${WEBHOOK(1)}' \\\n  -H 'Content-Type: application/json' \\\n  -d '{\n  "file_id": "1AbC"\n}'`;
    expect(within(panel).getByLabelText('curl example').textContent).toBe(curl);
    fireEvent.click(within(panel).getByRole('button', { name: 'Copy curl command' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(curl));
    expect(await within(panel).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  /** The basic view of combination 2, its recipe's webhook taking the given payload; resolves with the payload panel. */
  async function basicWithPayload(webhook_payload: { schema: Record<string, unknown>; example: Record<string, unknown> }): Promise<HTMLElement> {
    const recipe = {
      id: recipeIdOf(2),
      combination_id: 2,
      name: 'Basic',
      status: 'complete',
      running: true,
      job_succeeded_count: 0,
      job_failed_count: 0,
      webhook_url: WEBHOOK(2),
      inbound_email: null,
      steps: [],
      webhook_payload,
    };
    const sc: Scenario = { combinationId: 2, running: true, extra: { [`GET /api/automation/recipes/${recipeIdOf(2)}`]: () => ({ body: { recipe } }) } };
    renderRoute(setupShell(sc), '/solutions/combinations/workflow/:id', <BasicView combinationId={2} />, '/solutions/combinations/workflow/2');
    return screen.findByRole('region', { name: 'Webhook payload' });
  }

  it('a payload with a file (the basic view): the base64 field and a multipart example too', async () => {
    const panel = await basicWithPayload({
      schema: {
        type: 'object',
        required: ['binary'],
        properties: {
          name: { type: 'string', description: "the file's name" },
          binary: { type: 'string', contentEncoding: 'base64', description: 'the document encoded in base64' },
        },
      },
      example: { name: 'invoice-1001.pdf', binary: 'JVBERi0xLjcK...' },
    });
    expect(
      within(panel)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(["optional, text: the file's name", 'required, file, base64: the document encoded in base64']);
    expect(within(panel).getByLabelText('curl example with a file').textContent).toBe(`curl -X POST '${WEBHOOK(2)}' \\\n  -F 'file=@invoice-1001.pdf'`);
  });

  it('alternatives (the text, or a text file): each reads required unless the other is given', async () => {
    const panel = await basicWithPayload({
      schema: {
        type: 'object',
        anyOf: [{ required: ['text'] }, { required: ['binary'] }],
        properties: {
          text: { type: 'string', description: 'the text to analyse' },
          binary: { type: 'string', contentEncoding: 'base64', description: 'a .txt file encoded in base64, instead of the text' },
        },
      },
      example: { text: 'I am so happy with the new release.' },
    });
    expect(
      within(panel)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual([
      'required unless binary is given, text: the text to analyse',
      'required unless text is given, file, base64: a .txt file encoded in base64, instead of the text',
    ]);
  });
});
