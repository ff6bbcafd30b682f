import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import monitoring from '../../../plugins/monitoring';
import type { MonitoringRecord } from '../../../plugins/monitoring/records';
import type { MonitoringSeries } from '../../../plugins/monitoring/series';
import { AppRoutes } from '../../../src/app/routes';
import * as T from '../../../src/app/tokens';
import type { Breadcrumbs } from '../../../src/app/services/breadcrumbs';
import type { FakeHandler } from '../../support/fake-fetch';
import { renderInShell, testShell } from '../../support/render';

// plotly needs a real browser: the lazy chart chunk is replaced by a table of what it is given
jest.mock('../../../plugins/monitoring/ui/MonitoringChart', () => ({
  __esModule: true,
  default: ({ series, title }: { series: MonitoringSeries; title: string }) => (
    <table aria-label={title}>
      <tbody>
        {series.dates.map((d, i) => (
          <tr key={d}>
            <td>{d}</td>
            <td>{`ok ${series.succeeded[i]} failed ${series.failed[i]} rate ${series.successRate[i]} min ${series.minutesSaved[i]}`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  ),
}));

const SOLUTION = {
  id: 7,
  name: 'Finance',
  workflows: [
    { id: 101, name: 'Invoice extraction' },
    { id: 102, name: 'Reconciliation' },
  ],
};

function record(date: string, succeeded: number, failed: number, minutes = 5): MonitoringRecord {
  const runs = succeeded + failed;
  return {
    Id: 1,
    Cilent_id: 1001,
    Data_source: 101,
    Type: [
      { type: 'FAILED', value: failed },
      { type: 'SUCCEEDED', value: succeeded },
      {
        type: 'success_rate',
        value: runs ? Math.round((succeeded / runs) * 1000) / 10 : 0,
      },
      { type: 'time_cost_unit_min', value: succeeded * minutes },
    ],
    Date: date,
  };
}

const days = (n: number) => Array.from({ length: n }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`);
const data = (workflow: number) => `GET /api/platform/monitoringData?client_id=flowmatic-web&datasource=${workflow}&period=2`;

function setup(routes: Record<string, FakeHandler | { status?: number; body?: unknown }>, path = '/monitoring/7') {
  const shell = testShell({
    loggedIn: true,
    plugins: [monitoring],
    routes: { 'GET /api/platform/solution/7/': { body: SOLUTION }, ...routes },
  });
  renderInShell(<AppRoutes />, shell, path);
  return shell;
}

describe('/monitoring/{id}: the ML Monitoring Dashboard', () => {
  it('lists the workflows in a sidebar and shows the totals and chart of the selected one', async () => {
    const records = days(14).map((d) => record(d, 0, 0));
    records[12] = record('2026-03-13', 9, 3);
    records[13] = record('2026-03-14', 15, 0);
    const shell = setup({
      [data(101)]: { body: records },
      [data(102)]: { body: days(14).map((d) => record(d, 0, 0)) },
    });
    expect(
      await screen.findByRole('heading', {
        name: 'ML Monitoring Dashboard',
        level: 1,
      }),
    ).toBeInTheDocument();
    const tabs = within(await screen.findByRole('navigation', { name: 'Workflows' })).getAllByRole('tab');
    expect(tabs).toHaveLength(2);
    expect(screen.getByRole('tab', { name: 'Invoice extraction' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Reconciliation' })).toHaveAttribute('aria-selected', 'false');
    const panel = await screen.findByRole('region', {
      name: 'Runs of Invoice extraction',
    });
    expect(within(panel).getByText('27')).toBeInTheDocument(); // runs
    expect(within(panel).getByText('88.9%')).toBeInTheDocument(); // 24 of 27
    expect(within(panel).getByText('2')).toBeInTheDocument(); // 24 × 5 min = 2 hours
    const chart = await within(panel).findByRole('table', {
      name: 'Invoice extraction: runs per day',
    });
    expect(within(chart).getAllByRole('row')).toHaveLength(14);
    expect(within(chart).getByText('ok 9 failed 3 rate 75 min 45')).toBeInTheDocument();
    expect(shell.container.get<Breadcrumbs>(T.Breadcrumbs).trail.map((c) => c.label)).toEqual(['Home', 'Monitoring']);
    expect(shell.fetch.calls.find((c) => c.path.startsWith('/api/platform/monitoringData'))!.headers.Authorization).toBe('Bearer test-access');

    // the second workflow has no runs: 'No runs yet' with a link to its combinations
    fireEvent.click(screen.getByRole('tab', { name: 'Reconciliation' }));
    const empty = await screen.findByRole('region', {
      name: 'Runs of Reconciliation',
    });
    expect(await within(empty).findByText('No runs yet')).toBeInTheDocument();
    expect(
      within(empty).getByRole('link', {
        name: 'See the combinations of Reconciliation',
      }),
    ).toHaveAttribute('href', '/solutions/combinations/102');
    expect(within(empty).queryByRole('table')).not.toBeInTheDocument();
    expect(within(empty).getByText('–')).toBeInTheDocument();
  });

  it("shows the triggers of the workflow's running combinations: listening, or not working with the reason", async () => {
    setup({
      [data(101)]: { body: [record('2026-03-01', 1, 0)] },
      'GET /api/automation/trigger-health': {
        body: {
          recipes: [
            {
              recipe_id: 11,
              combination_id: 8,
              workflow_id: 101,
              combination_name: 'E-mailed Invoices to Google Sheets',
              trigger: 'manual_email:email_received',
              working: false,
              reason: 'The server cannot receive e-mail: port 2525 is in use.',
            },
            {
              recipe_id: 12,
              combination_id: 1,
              workflow_id: 101,
              combination_name: 'Google Drive Invoices to Google Sheets',
              trigger: 'google_drive:new_file_in_folder',
              working: true,
              reason: null,
            },
            {
              recipe_id: 13,
              combination_id: 10,
              workflow_id: 102,
              combination_name: 'Invoice Reconciliation',
              trigger: 'manual_upload:files_uploaded',
              working: true,
              reason: null,
            },
          ],
        },
      },
    });
    const list = await screen.findByTestId('trigger-health-list');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'E-mailed Invoices to Google Sheets Not working: The server cannot receive e-mail: port 2525 is in use.',
      'Google Drive Invoices to Google Sheets Listening',
    ]);
    expect(within(items[0]).getByRole('link', { name: 'E-mailed Invoices to Google Sheets' })).toHaveAttribute('href', '/solutions/combinations/workflow/8');
  });

  it("shows no trigger list while none of the workflow's combinations runs", async () => {
    setup({ [data(101)]: { body: [record('2026-03-01', 1, 0)] }, 'GET /api/automation/trigger-health': { body: { recipes: [] } } });
    await screen.findByRole('region', { name: 'Runs of Invoice extraction' });
    await screen.findByText('ok 1 failed 0 rate 100 min 5');
    expect(screen.queryByTestId('trigger-health-list')).not.toBeInTheDocument();
  });

  it('shows an error with Try again when the data cannot be loaded, then the data', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    let fail = true;
    setup({
      [data(101)]: () => (fail ? { status: 500, body: { status: 'error', message: 'boom' } } : { body: [record('2026-03-01', 1, 0)] }),
    });
    expect(await screen.findByText('The runs of Invoice extraction could not be loaded.')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('ok 1 failed 0 rate 100 min 5')).toBeInTheDocument();
    log.mockRestore();
  });

  it('shows an error when the solution cannot be loaded, and a note when it has no workflows', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    setup({
      'GET /api/platform/solution/7/': {
        status: 404,
        body: { status: 'error', message: 'Not found.' },
      },
    });
    expect(await screen.findByText("The solution's workflows could not be loaded.")).toBeInTheDocument();
    log.mockRestore();
  });

  it('says when a solution has no workflows', async () => {
    setup({
      'GET /api/platform/solution/7/': { body: { ...SOLUTION, workflows: [] } },
    });
    expect(await screen.findByText('This solution has no workflows to monitor.')).toBeInTheDocument();
  });

  it('shows a loading state first', async () => {
    setup({ [data(101)]: () => new Promise(() => undefined) });
    expect(await screen.findByText('Loading the runs of Invoice extraction...')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Invoice extraction' })).toBeInTheDocument());
  });

  it("opens on a workflow's tab from its Monitoring link (/monitoring/workflow/{id})", async () => {
    const shell = setup(
      {
        'GET /api/platform/workflows/102/': { body: { id: 102, solution_id: 7, name: 'Reconciliation' } },
        [data(101)]: { body: [] },
        [data(102)]: { body: [record('2026-03-01', 2, 1)] },
      },
      '/monitoring/workflow/102',
    );
    expect(await screen.findByRole('tab', { name: 'Reconciliation' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('ok 2 failed 1 rate 66.7 min 10')).toBeInTheDocument();
    // one Monitoring crumb: the redirect takes none of its own
    expect(shell.container.get<Breadcrumbs>(T.Breadcrumbs).trail.map((c) => c.label)).toEqual(['Home', 'Monitoring']);
  });

  it('says so when the linked workflow does not exist', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    setup({ 'GET /api/platform/workflows/999/': { status: 404, body: { status: 'error', message: 'Not found.' } } }, '/monitoring/workflow/999');
    expect(await screen.findByText('This workflow could not be found, so its runs cannot be shown.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/home');
    log.mockRestore();
  });
});
