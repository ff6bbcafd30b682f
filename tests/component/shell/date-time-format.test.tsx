import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import CombinationSetupPage from '../../../src/app/pages/CombinationSetupPage';
import { AppRoutes } from '../../../src/app/routes';
import monitoring from '../../../plugins/monitoring';
import type { MonitoringRecord } from '../../../plugins/monitoring/records';
import type { MonitoringSeries } from '../../../plugins/monitoring/series';
import { renderRoute } from '../catalogue/harness';
import { job, setupShell } from '../automation-views/harness';
import { renderInShell, testShell } from '../../support/render';

// plotly needs a real browser: the chart chunk is replaced by a list of the days it is given
jest.mock('../../../plugins/monitoring/ui/MonitoringChart', () => ({
  __esModule: true,
  default: ({ series }: { series: MonitoringSeries }) => <p>{`${series.dates.length} days`}</p>,
}));

/** '22 Nov 2026, 11:00:00 GMT+01:00': the one date-time format (src/app/date-time.ts). */
const DATE_TIME = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}:\d{2} GMT[+-]\d{2}:\d{2}$/;
/** Anything that reads as a date or a time in another format: 'Nov 22, 2026', '11/22/2026', '10:55 PM', '2026-11-22'. */
const OTHER_FORMATS =
  /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\d{1,2}:\d{2}(:\d{2})? ?(AM|PM|am|pm)\b|\b\d{4}-\d{2}-\d{2}\b/;

function monitoringRecord(date: string, succeeded: number): MonitoringRecord {
  return {
    Id: 1,
    Cilent_id: 1001,
    Data_source: 101,
    Type: [
      { type: 'FAILED', value: 0 },
      { type: 'SUCCEEDED', value: succeeded },
      { type: 'success_rate', value: succeeded ? 100 : 0 },
      { type: 'time_cost_unit_min', value: succeeded * 5 },
    ],
    Date: date,
  };
}

describe('one date-time format per screen, in the user time zone (issue 25)', () => {
  it("the job view: the recipe sidebar's 'Updated', the job list and the job's Started/Finished all read '22 Nov 2026, 11:00:00 GMT+01:00'", async () => {
    const shell = setupShell({
      combinationId: 8,
      status: 'complete',
      running: true,
      timeZone: '(GMT+01:00) Europe/Paris',
      jobs: [job('j-1', { started_at: '2026-11-22T22:55:25.000Z', completed_at: '2026-11-22T22:55:27.000Z' })],
      extra: {
        'GET /api/automation/jobs/j-1': {
          body: { job: job('j-1', { started_at: '2026-11-22T22:55:25.000Z', completed_at: '2026-11-22T22:55:27.000Z' }), steps: [] },
        },
      },
    });
    renderRoute(shell, '/solutions/combinations/workflow/:id', <CombinationSetupPage />, '/solutions/combinations/workflow/8');

    // the sidebar: the record's updated_at 2026-11-22T10:00:00Z in the user's zone (it read 'Nov 22, 2026, 10:00 AM' in the browser's zone before)
    const details = await screen.findByRole('group', { name: 'Recipe details' });
    await waitFor(() => expect(within(details).getByText('22 Nov 2026, 11:00:00 GMT+01:00')).toBeInTheDocument());

    fireEvent.click(await screen.findByRole('tab', { name: 'jobs' }));
    const list = await screen.findByRole('list', { name: 'Jobs' });
    const [row] = within(list).getAllByRole('button');
    expect(row).toHaveTextContent('Started: 22 Nov 2026, 23:55:25 GMT+01:00');
    fireEvent.click(row);
    await screen.findByRole('list', { name: 'Steps' });
    expect(screen.getByText('22 Nov 2026, 23:55:25 GMT+01:00')).toBeInTheDocument();
    expect(screen.getByText('22 Nov 2026, 23:55:27 GMT+01:00')).toBeInTheDocument();

    // every date-time on the screen has the one format, and none reads in another
    const text = document.body.textContent ?? '';
    const found = [...text.matchAll(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2} GMT[+-]\d{2}:\d{2}/g)].map((m) => m[0]);
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const f of found) expect(f).toMatch(DATE_TIME);
    expect(text).not.toMatch(OTHER_FORMATS);
  });

  it("the monitoring page shows its days in the same format ('1 Mar 2026 to 14 Mar 2026'), nothing in another", async () => {
    const days = Array.from({ length: 14 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`);
    const shell = testShell({
      loggedIn: true,
      plugins: [monitoring],
      routes: {
        'GET /api/platform/solution/7/': { body: { id: 7, name: 'Finance', workflows: [{ id: 101, name: 'Invoice extraction' }] } },
        'GET /api/platform/monitoringData?client_id=flowmatic-web&datasource=101&period=2': { body: days.map((d, i) => monitoringRecord(d, i % 3)) },
      },
    });
    shell.storage.setItem('time_zone', '(GMT+01:00) Europe/Paris');
    renderInShell(<AppRoutes />, shell, '/monitoring/7');
    const panel = await screen.findByRole('region', { name: 'Runs of Invoice extraction' });
    expect(within(panel).getByText('1 Mar 2026 to 14 Mar 2026')).toBeInTheDocument();
    expect(await within(panel).findByText('14 days')).toBeInTheDocument();
    expect(document.body.textContent ?? '').not.toMatch(OTHER_FORMATS);
  });
});
