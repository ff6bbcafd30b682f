import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import HomePage, { NO_ACTIVE, SAMPLE_RUN_PATH } from '../../../src/app/pages/HomePage';
import { catalogueShell, cataloguePlugins, combination, record, renderRoute, userRoutes } from './harness';

/** Issue 25: a newcomer's home page offers the first run on the sample invoice; a regular's does not. */
describe('home dashboard: the first-run action', () => {
  const combos = { 'GET /api/platform/combinations': { body: [combination(1, { workflow_id: 10004 }), combination(8)] } };

  it('offers "Try it with a sample invoice" under the empty Active list, linking to the invoice page that starts it', async () => {
    const user = userEvent.setup();
    const shell = catalogueShell({ ...userRoutes(), ...combos });
    renderRoute(shell, '/home', <HomePage />, '/home');
    const empty = (await screen.findByText(NO_ACTIVE)).parentElement!;
    const link = within(empty).getByRole('link', { name: 'Try it with a sample invoice' });
    expect(SAMPLE_RUN_PATH).toBe('/workflow/10004?sample=invoice');
    expect(link).toHaveAttribute('href', '/workflow/10004?sample=invoice');
    await user.click(link);
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/workflow/10004?sample=invoice');
  });

  it('is not offered once a combination is active', async () => {
    const shell = catalogueShell({ ...combos, ...userRoutes({ records: [record(8, { job_succeeded_count: 1 })] }) });
    renderRoute(shell, '/home', <HomePage />, '/home');
    const active = (await screen.findByRole('button', { name: 'Active Combinations' })).closest('.fui-AccordionItem') as HTMLElement;
    await waitFor(() =>
      expect(
        within(active)
          .getAllByRole('heading', { level: 3 })
          .map((h) => h.textContent),
      ).toEqual(['Combination 8', '+ New Combination']),
    );
    expect(screen.queryByText(NO_ACTIVE)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Try it with a sample invoice' })).not.toBeInTheDocument();
  });

  it('is not offered when the invoice extraction plugin is not installed', async () => {
    const shell = catalogueShell(
      { ...userRoutes(), ...combos },
      cataloguePlugins.filter((p) => p.id !== 'invoice-extraction'),
    );
    renderRoute(shell, '/home', <HomePage />, '/home');
    expect(await screen.findByText(NO_ACTIVE)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Try it with a sample invoice' })).not.toBeInTheDocument();
  });
});
