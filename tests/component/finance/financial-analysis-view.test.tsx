import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import FinancialAnalysisView, { analysisBlocker } from '../../../plugins/financial-analysis/FinancialAnalysisView';
import { renderInShell, testShell } from '../../support/render';
import type { FakeCall } from '../../support/fake-fetch';

const CONFIG = '/api/platform/financialAnalysisConfig';
const COMPLETE = 'POST /api/financial-analysis/complete/';

const report = (focus: string) => ({
  focus_area: focus,
  file_name: 'accounts.csv',
  periods: ['FY2023', 'FY2024'],
  lineItems: [
    { id: 'revenue', name: 'Revenue', label: 'Revenue', values: [1000000, 1200000] },
    { id: 'netIncome', name: 'Net income', label: 'Net income', values: [90000, 120000] },
  ],
  ratios: [{ id: 'revenueGrowth', name: 'Revenue growth', formula: '(revenue − previous revenue) ÷ previous revenue', unit: 'percent', values: [null, 0.2] }],
  findings: [
    {
      topic: 'growth',
      severity: 'strength',
      title: 'Revenue is growing',
      detail: 'Revenue grew 20.0% from 1,000,000 to 1,200,000.',
      metric: 'revenueGrowth',
      values: [],
    },
  ],
  recommendations: ['Keep investing in the channels behind the 20.0% growth.'],
  summary: 'Sales grew by a fifth.',
  summary_source: 'template',
  chart: { x: ['FY2023', 'FY2024'], series: [{ name: 'Revenue', values: [1000000, 1200000] }] },
  unreadable: ['No current assets line was found.'],
});

function setup(complete: (n: number) => unknown, saved: string | null = "{'SELECTED_FOCUS_AREA': 'sales-and-income'}") {
  let polls = 0;
  let savedJson = saved;
  const shell = testShell({
    loggedIn: true,
    routes: {
      [`GET ${CONFIG}`]: () => ({ body: { status: 'success', id: savedJson ? 3 : null, combination_id: 11, config_json: savedJson } }),
      [`POST ${CONFIG}`]: (c: FakeCall) => {
        savedJson = (c.body as { config_json: string }).config_json;
        return { status: 201, body: { status: 'success', id: 3, combination_id: 11, config_json: savedJson } };
      },
      'POST /api/platform/financial_analysis/start_comparison': { body: { jobId: { wf_id: 'wf-1' }, status: 'RUNNING', message: 'Analysing' } },
      [COMPLETE]: () => ({ body: complete(++polls) }),
    },
  });
  renderInShell(<FinancialAnalysisView combinationId={11} pollMs={50} />, shell, '/solutions/combinations/workflow/11');
  return shell;
}

const statement = () => new File(['Line item,FY2024,FY2023\nRevenue,1200000,1000000\n'], 'accounts.csv', { type: 'text/csv' });

describe('FinancialAnalysisView (combination 11)', () => {
  it('enables Test and Run only with a document, a saved config and no unsaved changes', () => {
    expect(analysisBlocker(false, true, false)).toBe('Upload a statement to test or run.');
    expect(analysisBlocker(true, false, false)).toBe('Save a focus area to test or run.');
    expect(analysisBlocker(true, true, true)).toBe('Save your changes to test or run.');
    expect(analysisBlocker(true, true, false)).toBeNull();
  });

  it('saves the focus area as SELECTED_FOCUS_AREA and shows Config Saved', async () => {
    const user = userEvent.setup();
    const shell = setup(() => ({ status: 'RUNNING' }), null);
    const focus = await screen.findByRole('combobox', { name: /Focus area/ });
    await user.upload(screen.getByLabelText('Financial statement'), statement());
    expect(screen.getByRole('button', { name: 'Test' })).toBeDisabled();
    await user.selectOptions(focus, 'Cash-flow management');
    await user.click(screen.getByRole('button', { name: 'Save config' }));
    expect(await screen.findByText('Config Saved')).toBeInTheDocument();
    expect(shell.fetch.calls.find((c) => c.method === 'POST' && c.path === CONFIG)?.body).toEqual({
      combination_id: 11,
      config_json: "{'SELECTED_FOCUS_AREA': 'cash-flow-management'}",
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Test' })).toBeEnabled());
  });

  it('polls until COMPLETE and shows the report with findings, ratios, line items and the chart', async () => {
    const user = userEvent.setup();
    const shell = setup((n) =>
      n < 3
        ? { status: 'RUNNING' }
        : { status: 'COMPLETE', report: { default: report('overall-financial-position'), custom_config: report('sales-and-income') } },
    );
    await screen.findByRole('combobox', { name: /Focus area/ });
    await user.upload(screen.getByLabelText('Financial statement'), statement());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Test' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Test' }));

    const region = await screen.findByRole('region', { name: 'Financial report' });
    expect(shell.fetch.calls.filter((c) => c.path === '/api/financial-analysis/complete/')).toHaveLength(3);
    expect(shell.fetch.calls.find((c) => c.path === '/api/financial-analysis/complete/')?.body).toEqual({ jobId: { wf_id: 'wf-1' } });
    expect(shell.fetch.calls.find((c) => c.path === '/api/platform/financial_analysis/start_comparison')?.body).toMatchObject({
      combination_id: 11,
      file_name: 'accounts.csv',
      default: true,
    });
    expect(within(region).getByRole('heading', { name: 'Sales and income' })).toBeInTheDocument();
    expect(within(region).getByRole('article', { name: 'Revenue is growing' })).toHaveTextContent('Revenue grew 20.0% from 1,000,000 to 1,200,000.');
    expect(within(region).getByRole('table', { name: 'Ratios table' })).toHaveTextContent('20.0%');
    expect(within(region).getByRole('table', { name: 'Line items table' })).toHaveTextContent('1,200,000');
    expect(within(region).getByText('No current assets line was found.')).toBeInTheDocument();
    expect(await within(region).findByTestId('report-chart')).toBeInTheDocument();
    await user.click(within(region).getByRole('tab', { name: 'Default' }));
    expect(within(region).getByRole('heading', { name: 'Overall financial position' })).toBeInTheDocument();
  });

  it("shows 'Test Failed, check your file' with what could not be read", async () => {
    const user = userEvent.setup();
    setup(() => ({ status: 'FAILED', message: 'No financial line items were recognised in "notes.csv".' }));
    await screen.findByRole('combobox', { name: /Focus area/ });
    await user.upload(screen.getByLabelText('Financial statement'), statement());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Test' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Test' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Test Failed, check your file');
    expect(alert).toHaveTextContent('No financial line items were recognised in "notes.csv".');
  });

  it('tests the file chosen last (the buttons inside the form use the latest state)', async () => {
    const user = userEvent.setup();
    const shell = setup(() => ({ status: 'COMPLETE', report: { default: null, custom_config: report('sales-and-income') } }));
    await screen.findByRole('combobox', { name: /Focus area/ });
    await user.upload(screen.getByLabelText('Financial statement'), statement());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Test' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Test' }));
    await screen.findByRole('region', { name: 'Financial report' });
    await user.upload(screen.getByLabelText('Financial statement'), new File(['Name,Colour\n'], 'notes.csv', { type: 'text/csv' }));
    await screen.findByText(/^notes\.csv/);
    await user.click(screen.getByRole('button', { name: 'Test' }));
    await waitFor(() =>
      expect(
        shell.fetch.calls.filter((c) => c.path === '/api/platform/financial_analysis/start_comparison').map((c) => (c.body as { file_name: string }).file_name),
      ).toEqual(['accounts.csv', 'notes.csv']),
    );
  });

  it('refuses a file type it cannot read', async () => {
    const user = userEvent.setup({ applyAccept: false });
    setup(() => ({ status: 'RUNNING' }));
    await screen.findByRole('combobox', { name: /Focus area/ });
    await user.upload(screen.getByLabelText('Financial statement'), new File(['x'], 'photo.png'));
    expect(await screen.findByText('Only CSV, XLSX or PDF statements can be uploaded.')).toBeInTheDocument();
  });
});
