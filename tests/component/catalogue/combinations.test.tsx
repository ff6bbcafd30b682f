import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import CombinationsPage, { NO_CONTENT } from '../../../src/app/pages/CombinationsPage';
import { catalogueShell, combination, connection, record, renderRoute, userRoutes, workflow } from './harness';

function setup(combinations: unknown[], user = userRoutes()) {
  const shell = catalogueShell({
    'GET /api/platform/workflows/10004/': { body: { ...workflow(10004, { name: 'Invoice Data Extraction' }), combinations } },
    ...user,
  });
  renderRoute(shell, '/solutions/combinations/:id', <CombinationsPage />, '/solutions/combinations/10004', ['/solution/1']);
  return shell;
}

describe('/solutions/combinations/{id}', () => {
  it('shows one card per combination: order desc, then votes desc, coming soon last', async () => {
    setup(
      [
        combination(12, { name: 'Soon', status: 'coming_soon', order: 9, votes: 99 }),
        combination(9, { name: 'Xero', order: 2, votes: 1 }),
        combination(8, { name: 'Email', order: 3 }),
        combination(1, { name: 'Drive', order: 2, votes: 5 }),
      ],
      userRoutes({ connections: [connection('xero')], records: [record(9, { job_succeeded_count: 1 })] }),
    );
    await screen.findByRole('heading', { name: 'Xero' });
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Email', 'Drive', 'Xero', 'Soon']);
    expect(screen.getByRole('heading', { name: 'Invoice Data Extraction', level: 2 })).toBeInTheDocument();
    const xero = screen.getByRole('group', { name: 'Xero' });
    expect(within(xero).getByText('Connected')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Drive' })).getByText('Inactive')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Soon' })).getByText('Coming Soon')).toBeInTheDocument();
  });

  it("an empty list says 'Sorry, no content available at the moment.' and 'Go back' goes back", async () => {
    setup([]);
    expect(await screen.findByText(NO_CONTENT)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/solution/1'));
  });
});
