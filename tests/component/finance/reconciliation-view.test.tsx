import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ReconciliationView, { runBlocker, testBlocker } from '../../../plugins/invoice-reconciliation/ReconciliationView';
import { renderInShell, testShell } from '../../support/render';
import type { FakeCall } from '../../support/fake-fetch';

const CONFIG = '/api/platform/invoiceReconciliationConfig';
const INV = 'Invoice Number,PO Number,Vendor,Qty,Unit Price,Total\nI-1,PO-1,Acme Ltd,12,2.50,30.00\n';
const PO = 'PO Number,Vendor,Qty,Unit Price,Total\nPO-1,Acme Ltd,10,2.50,25.00\n';

const side = (source: string) => ({
  emails: [
    {
      type: 'vendor_not_matched',
      vendor: 'Acme Ltd',
      to: 'ar@acme.example',
      subject: 'Invoice discrepancies requiring your attention (1 line)',
      body: 'Dear Acme Ltd,\n\nQuantity invoiced 12, ordered 10.',
      tone: 'formal',
      source: 'template',
    },
  ],
  metadata: {
    mode: 'reconciliation',
    invoice_file: 'invoices.csv',
    purchase_order_file: 'orders.csv',
    invoice_key: 'PO Number',
    purchase_order_key: 'PO Number',
    invoice_rows: 2,
    purchase_order_rows: 1,
    matched_rows: 1,
    match_rate: 0.5,
    total_difference: 5,
    config_source: source,
    vendors: [],
  },
  discrepencies: [
    {
      kind: 'quantity',
      key: 'PO-1',
      field: 'quantity',
      invoice_row: 2,
      purchase_order_row: 2,
      invoice_value: 12,
      purchase_order_value: 10,
      expected_value: null,
      delta: 2,
      vendor: 'Acme Ltd',
      description: 'Bolts',
      message: 'Quantity differs',
    },
    {
      kind: 'total',
      key: 'PO-0',
      field: 'total',
      invoice_row: 3,
      purchase_order_row: 4,
      invoice_value: 30,
      purchase_order_value: 25,
      expected_value: null,
      delta: 5,
      vendor: 'Zeta plc',
      description: 'Nuts',
      message: 'Total differs',
    },
  ],
  unmatched_records: [
    {
      side: 'invoice',
      key: 'PO-8',
      row: 4,
      vendor: 'Globex',
      description: 'Toner',
      quantity: 1,
      unit_price: 1250,
      total: 1250,
      reason: 'No purchase order with this number',
    },
  ],
});

/** A side as the page's comparison reply has it (?view=pages): the summary, e-mails, counts and first page of rows. */
const paged = (source: string) => {
  const s = side(source);
  const { vendors: _, ...metadata } = s.metadata;
  return {
    metadata: { ...metadata, vendor_count: 0 },
    emails: s.emails,
    discrepancy_count: s.discrepencies.length,
    unmatched_count: s.unmatched_records.length,
    first: { discrepancies: s.discrepencies, unmatched: s.unmatched_records },
  };
};
const RESULT_ID = '5f0c-result.txt';
const ROWS = `/api/plugins/invoice-reconciliation/results/${RESULT_ID}/rows`;

function csv(name: string, text: string) {
  return new File([text], name, { type: 'text/csv' });
}

function setup(opts: { saved?: string | null; webhook?: string | null } = {}) {
  let savedJson = opts.saved ?? null;
  const shell = testShell({
    loggedIn: true,
    routes: {
      [`GET ${CONFIG}`]: () => ({ body: { status: 'success', id: savedJson ? 7 : null, combination_id: 10, config_json: savedJson } }),
      [`POST ${CONFIG}`]: (c: FakeCall) => {
        savedJson = (c.body as { config_json: string }).config_json;
        return { status: 201, body: { status: 'success', id: 7, combination_id: 10, config_json: savedJson } };
      },
      [`PUT ${CONFIG}/7/`]: (c: FakeCall) => {
        savedJson = (c.body as { config_json: string }).config_json;
        return { body: { status: 'success', id: 7, combination_id: 10, config_json: savedJson } };
      },
      'POST /api/platform/invoice_reconciliation/comparison': () => ({
        body: { result_id: RESULT_ID, page_size: 100, default: paged('detected'), custom_config: paged('saved config') },
      }),
      // the server sorts every row of the kept result: here, the two discrepancies by key
      [`GET ${ROWS}`]: (c: FakeCall) => {
        const q = new URL(c.path, 'http://x').searchParams;
        const rows = [...side('saved config').discrepencies].sort((a, b) => a.key.localeCompare(b.key) * (q.get('direction') === 'descending' ? -1 : 1));
        return { body: { total: 2, offset: 0, rows } };
      },
      'GET /api/platform/userByWorkatoRecipe/100001/': { body: { workato_recipes: [{ combination: 10, workato_webhook: opts.webhook ?? null }] } },
    },
  });
  renderInShell(<ReconciliationView combinationId={10} />, shell, '/solutions/combinations/workflow/10');
  return shell;
}

const SAVED =
  "{'EMAIL_TONE_OF_VOICE_MATCHED': 'friendly', 'EMAIL_TONE_OF_VOICE_NOT_MATCHED': 'formal', 'GENERATE_EMAIL_FOR_NOT_MATCHED': True, 'GENERATE_EMAIL_FOR_MATCHED': False, 'GENERATE_INTERNAL_MEMO_FOR_NOT_MATCHED': True}";

/** Both CSV files chosen, then Run Workflow pressed. */
async function pressRun(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByRole('button', { name: 'Save config' });
  await user.upload(screen.getByLabelText('Invoice file (.csv)'), csv('invoices.csv', INV));
  await user.upload(screen.getByLabelText('Purchase-order file (.csv)'), csv('orders.csv', PO));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Run Workflow' })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: 'Run Workflow' }));
}

describe('ReconciliationView (combination 10)', () => {
  it('enables Test Configuration and Run Workflow by the rules of spec section 5', () => {
    expect(testBlocker(false, true, false)).toBe('Save the config to test it.');
    expect(testBlocker(true, false, false)).toBe('Upload the invoice file to test the config.');
    expect(testBlocker(true, true, true)).toBe('Save your changes to test them.');
    expect(testBlocker(true, true, false)).toBeNull();
    expect(runBlocker(true, true, false, false)).toBe('Upload both files to run the workflow.');
    expect(runBlocker(false, true, true, false)).toBe('Save the config to run the workflow.');
    expect(runBlocker(true, true, true, true)).toBe('Save your changes to run the workflow.');
    expect(runBlocker(true, true, true, false)).toBeNull();
  });

  it('fills the key choices from the header row, creates the config, shows Config Saved for 3 s, then updates', async () => {
    const user = userEvent.setup();
    const shell = setup();
    const save = await screen.findByRole('button', { name: 'Save config' });
    const testButton = screen.getByRole('button', { name: 'Test Configuration' });
    expect(testButton).toBeDisabled();
    await user.upload(screen.getByLabelText('Invoice file (.csv)'), csv('invoices.csv', INV));
    const invoiceKey = await screen.findByRole('combobox', { name: /Invoice key column/ });
    await waitFor(() =>
      expect(
        within(invoiceKey)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Detect from the header row', 'Invoice Number', 'PO Number', 'Vendor', 'Qty', 'Unit Price', 'Total']),
    );
    await user.selectOptions(invoiceKey, 'PO Number');
    expect(testButton).toBeDisabled(); // nothing saved yet

    await user.click(save);
    expect(await screen.findByText('Config Saved')).toBeInTheDocument();
    const post = shell.fetch.calls.find((c) => c.method === 'POST' && c.path === CONFIG)!;
    expect(post.body).toEqual({ combination_id: 10, config_json: expect.stringContaining("'INVOICE_PRIMARY_KEY': 'PO Number'") });
    expect((post.body as { config_json: string }).config_json).toContain("'GENERATE_EMAIL_FOR_NOT_MATCHED': True");
    await waitFor(() => expect(screen.getByRole('button', { name: 'Test Configuration' })).toBeEnabled());
    await waitFor(() => expect(screen.queryByText('Config Saved')).not.toBeInTheDocument(), { timeout: 4000 });

    // a change disables Test until saved; the second save is an update
    await user.selectOptions(screen.getByRole('combobox', { name: /Tone of voice for not-matched e-mails/ }), 'Humorous');
    expect(screen.getByRole('button', { name: 'Test Configuration' })).toBeDisabled();
    expect(screen.getByText(/Save your changes to test them/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save config' }));
    await screen.findByText('Config Saved');
    expect(shell.fetch.calls.filter((c) => c.method === 'PUT').map((c) => c.path)).toEqual([`${CONFIG}/7/`]);
  });

  it('refuses a file that is not .csv', async () => {
    const user = userEvent.setup({ applyAccept: false });
    setup({ saved: SAVED });
    await screen.findByRole('button', { name: 'Save config' });
    await user.upload(screen.getByLabelText('Invoice file (.csv)'), new File(['x'], 'invoices.xlsx'));
    expect(await screen.findByText('Only .csv files can be uploaded.')).toBeInTheDocument();
  });

  it('tests the config on the files and shows sortable tables, e-mail cards and the other side', async () => {
    const user = userEvent.setup();
    const shell = setup({ saved: SAVED });
    await screen.findByRole('button', { name: 'Save config' });
    await user.upload(screen.getByLabelText('Invoice file (.csv)'), csv('invoices.csv', INV));
    await user.upload(screen.getByLabelText('Purchase-order file (.csv)'), csv('orders.csv', PO));
    const test = screen.getByRole('button', { name: 'Test Configuration' });
    await waitFor(() => expect(test).toBeEnabled());
    await user.click(test);

    const table = await screen.findByRole('table', { name: 'Discrepancies table' });
    const call = shell.fetch.calls.find((c) => c.path === '/api/platform/invoice_reconciliation/comparison?view=pages')!;
    expect(call.body).toMatchObject({ combination_id: 10, file1_name: 'invoices.csv', file2_name: 'orders.csv' });
    expect(Buffer.from((call.body as { file1_binary: string }).file1_binary, 'base64').toString()).toBe(INV);

    const keys = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[0].textContent);
    expect(keys()).toEqual(['PO-1', 'PO-0']);
    expect(screen.getByRole('navigation', { name: 'Discrepancies table pages' })).toHaveTextContent('Rows 1–2 of 2');
    // a header sorts every row of the kept result: the server is asked for the first page in that order
    await user.click(within(table).getByRole('columnheader', { name: 'Key' }));
    await waitFor(() => expect(keys()).toEqual(['PO-0', 'PO-1']));
    expect(shell.fetch.calls.at(-1)!.path).toBe(`${ROWS}?side=custom_config&table=discrepancies&offset=0&limit=100&sort=key&direction=ascending`);
    await user.click(within(table).getByRole('columnheader', { name: 'Key' }));
    await waitFor(() => expect(keys()).toEqual(['PO-1', 'PO-0']));
    expect(shell.fetch.calls.at(-1)!.path).toBe(`${ROWS}?side=custom_config&table=discrepancies&offset=0&limit=100&sort=key&direction=descending`);
    expect(screen.getByRole('table', { name: 'Unmatched records table' })).toHaveTextContent('Toner');
    expect(screen.getByRole('article', { name: 'Invoice discrepancies requiring your attention (1 line)' })).toHaveTextContent(
      'Quantity invoiced 12, ordered 10.',
    );
    expect(screen.getByTestId('result-source')).toHaveTextContent('Invoice key “PO Number”, purchase-order key “PO Number” · saved config');

    // a download is built on the server from the kept result; the page follows the link it answers
    shell.fetch.routes[`POST /api/plugins/invoice-reconciliation/results/${RESULT_ID}/download`] = {
      body: { name: 'reconciliation-custom-config-discrepancies.csv', url: '/api/files/download?token=t1' },
    };
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.getAttribute('href')} ${this.download}`);
    });
    try {
      await user.click(screen.getByRole('button', { name: 'Discrepancies CSV' }));
      await waitFor(() => expect(clicked).toHaveLength(1));
      expect(clicked[0]).toMatch(/\/api\/files\/download\?token=t1 reconciliation-custom-config-discrepancies\.csv$/);
      expect(shell.fetch.calls.at(-1)!.body).toEqual({ side: 'custom_config', format: 'csv', table: 'discrepancies' });
    } finally {
      click.mockRestore();
    }
    await user.click(screen.getByRole('tab', { name: 'Default' }));
    expect(screen.getByTestId('result-source')).toHaveTextContent(/detected from the headers$/);
  });

  it('shows the server message of a malformed file', async () => {
    const user = userEvent.setup();
    const shell = setup({ saved: SAVED });
    shell.fetch.routes['POST /api/platform/invoice_reconciliation/comparison'] = {
      status: 400,
      body: { status: 'error', message: 'The file "invoices.csv" has a problem in row 3, column "Qty": "four" is not a number.' },
    };
    await screen.findByRole('button', { name: 'Save config' });
    await user.upload(screen.getByLabelText('Invoice file (.csv)'), csv('invoices.csv', INV));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Test Configuration' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Test Configuration' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('row 3, column "Qty": "four" is not a number');
  });

  it('Run Workflow says so when the automation is not set up, and posts to the webhook when it is', async () => {
    const user = userEvent.setup();
    setup({ saved: SAVED });
    await screen.findByRole('button', { name: 'Save config' });
    const run = screen.getByRole('button', { name: 'Run Workflow' });
    await user.upload(screen.getByLabelText('Invoice file (.csv)'), csv('invoices.csv', INV));
    expect(run).toBeDisabled();
    await user.upload(screen.getByLabelText('Purchase-order file (.csv)'), csv('orders.csv', PO));
    await waitFor(() => expect(run).toBeEnabled());
    await user.click(run);
    expect(await screen.findByText('This workflow cannot run yet: its automation is not set up.')).toBeInTheDocument();
  });

  it('posts config_json, email, user_id and both files to the recipe webhook', async () => {
    const user = userEvent.setup();
    const shell = setup({ saved: SAVED, webhook: 'https://hooks.example/recipe/10' });
    shell.fetch.routes['GET /api/platform/userId'] = { body: { userID: 1001, email: 'ada@example.com', workato_id: 100001, is_verify: true } };
    shell.fetch.routes['GET /api/automation/jobs/job-10'] = {
      body: {
        job: { id: 'job-10', status: 'succeeded', error: null },
        steps: [{ index: 1, name: 'Reconcile the invoices', status: 'succeeded', output_summary: '3 matched, 1 discrepancy', error: null }],
      },
    };
    const webhook = jest.fn(async () => new Response(JSON.stringify({ status: 'ok', job_id: 'job-10' }), { status: 200 }));
    const original = global.fetch;
    global.fetch = webhook as unknown as typeof fetch;
    try {
      await pressRun(user);
      // the job the run started, followed to its end on the page
      expect(await screen.findByText('Reconcile the invoices: 3 matched, 1 discrepancy')).toBeInTheDocument();
      expect(screen.getByText('The workflow ran')).toBeInTheDocument();
      const [url, init] = webhook.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe('https://hooks.example/recipe/10');
      expect(JSON.parse(String(init.body))).toMatchObject({
        config_json: SAVED,
        email: 'ada@example.com',
        user_id: 1001,
        file1_name: 'invoices.csv',
        file2_name: 'orders.csv',
      });
    } finally {
      global.fetch = original;
    }
  });

  it("the run's whole result kept as a workbook downloads from the page through a fresh link", async () => {
    const user = userEvent.setup();
    const shell = setup({ saved: SAVED, webhook: 'https://hooks.example/recipe/10' });
    shell.fetch.routes['GET /api/platform/userId'] = { body: { userID: 1001, email: 'ada@example.com', workato_id: 100001, is_verify: true } };
    const file = { bucket: 'automation', key: 'k-10.xlsx', name: 'reconciliation-invoices.xlsx', kind: 'xlsx', size: 6_000 };
    shell.fetch.routes['GET /api/automation/jobs/job-11'] = {
      body: {
        job: { id: 'job-11', status: 'succeeded', error: null },
        steps: [
          {
            index: 1,
            name: 'Reconcile the invoices',
            status: 'succeeded',
            output_summary: 'Result kept as a file',
            error: null,
            output: { discrepancy_count: 1, result_file: file },
          },
          {
            index: 2,
            name: 'Send the e-mail',
            status: 'succeeded',
            output_summary: 'E-mail sent',
            error: null,
            output: { sent: true, to: 'ada@example.com', subject: 'Reconciliation' },
          },
        ],
      },
    };
    shell.fetch.routes['GET /api/automation/jobs/job-11/files/link?bucket=automation&key=k-10.xlsx'] = {
      body: { name: file.name, url: '/api/files/download?token=t10' },
    };
    const original = global.fetch;
    global.fetch = (async () => new Response(JSON.stringify({ status: 'ok', job_id: 'job-11' }), { status: 200 })) as unknown as typeof fetch;
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.getAttribute('href')} ${this.download}`);
    });
    try {
      await pressRun(user);
      expect(await screen.findByText('Send the e-mail: E-mail sent')).toBeInTheDocument();
      // only the step that kept a file offers one
      expect(screen.getAllByRole('button', { name: /^Download / }).map((b) => b.textContent)).toEqual(['Download reconciliation-invoices.xlsx']);
      await user.click(screen.getByRole('button', { name: 'Download reconciliation-invoices.xlsx' }));
      await waitFor(() => expect(clicked).toHaveLength(1));
      expect(clicked[0]).toMatch(/\/api\/files\/download\?token=t10 reconciliation-invoices\.xlsx$/);
    } finally {
      global.fetch = original;
      click.mockRestore();
    }
  });

  it('a stopped recipe: no success, the reason, and a Start control', async () => {
    const user = userEvent.setup();
    const shell = setup({ saved: SAVED, webhook: 'https://hooks.example/recipe/10' });
    shell.fetch.routes['GET /api/platform/userId'] = { body: { userID: 1001, email: 'ada@example.com', workato_id: 100001, is_verify: true } };
    const original = global.fetch;
    global.fetch = (async () =>
      new Response(JSON.stringify({ status: 'error', message: 'This workflow is stopped: start it, then try again.' }), {
        status: 409,
      })) as unknown as typeof fetch;
    try {
      await pressRun(user);
      expect(await screen.findByText('Workflow Stopped')).toBeInTheDocument();
      expect(screen.getByText(/This workflow is stopped, so nothing ran/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Start Workflow and run' })).toBeEnabled();
    } finally {
      global.fetch = original;
    }
  });
});
