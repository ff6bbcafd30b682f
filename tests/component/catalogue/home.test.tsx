import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import * as T from '../../../src/app/tokens';
import HomePage, { HOME_LOAD_ERROR, NO_ACTIVE, NO_RECOMMENDED } from '../../../src/app/pages/HomePage';
import { NEWS_TOPIC } from '../../../src/app/pages/catalogue/IntroPanel';
import { MemoryStorage } from '../../../src/app/services/storage';
import type { Breadcrumbs } from '../../../src/app/services/breadcrumbs';
import { renderInShell } from '../../support/render';
import { CONNECTIONS, RECIPES, USER_ID, catalogueShell, combination, connection, deferred, record, userRoutes, type RouteTable } from './harness';

const COMBOS = [
  combination(1, { name: 'Drive invoices to Sheets', order: 4, recommended: true, workflow_id: 10004, new_combination_target: true }),
  combination(8, { name: 'E-mailed invoices to Sheets', order: 3, recommended: true }),
  combination(9, { name: 'E-mailed invoices to Xero', order: 2 }),
  combination(10, { name: 'Invoice reconciliation', order: 1, recommended: true, running: true }),
  combination(11, { name: 'Financial analysis', enabled: false, recommended: true }),
  combination(12, { name: 'Expense categorisation', status: 'coming_soon', recommended: true, votes: 5 }),
];

function renderHome(routes: RouteTable, storage?: MemoryStorage, sessionStorage?: MemoryStorage) {
  const shell = catalogueShell({ 'GET /api/platform/combinations': { body: COMBOS }, ...userRoutes(), ...routes }, undefined, sessionStorage);
  if (storage) for (const k of ['shouldCollapseNews']) if (storage.getItem(k)) shell.storage.setItem(k, storage.getItem(k)!);
  renderInShell(<HomePage />, shell, '/home');
  return shell;
}

const counter = (label: string) => screen.getByRole('group', { name: label });
const region = (name: string) => screen.getByRole('button', { name }).closest('.fui-AccordionItem') as HTMLElement;

describe('home dashboard', () => {
  it('shows a loading dot in each counter until its value is known', async () => {
    const combos = deferred<{ body: unknown }>();
    const conns = deferred<{ body: unknown }>();
    const votes = deferred<{ body: unknown }>();
    renderHome({
      'GET /api/platform/combinations': () => combos.promise,
      [CONNECTIONS]: () => conns.promise,
      'GET /api/platform/votes': () => votes.promise,
    });
    for (const label of ['Active Connections', 'Combinations Available', 'Coming Soon Votes']) {
      expect(within(counter(label)).getByRole('status', { name: `Loading ${label}` })).toBeInTheDocument();
    }
    await act(async () => combos.resolve({ body: COMBOS }));
    // available only needs the combinations; 10 available: 1, 8, 9, 10 (11 disabled, 12 coming soon)
    await waitFor(() => expect(counter('Combinations Available')).toHaveTextContent('4'));
    expect(within(counter('Active Connections')).getByRole('status')).toBeInTheDocument();
    expect(within(counter('Coming Soon Votes')).getByRole('status')).toBeInTheDocument();
    await act(async () => conns.resolve({ body: { result: [connection('xero'), connection('google_drive')] } }));
    await waitFor(() => expect(counter('Active Connections')).toHaveTextContent('3'));
    await act(async () =>
      votes.resolve({
        body: [
          { combination_id: 12, user_id: USER_ID },
          { combination_id: 13, user_id: 999 },
        ],
      }),
    );
    await waitFor(() => expect(counter('Coming Soon Votes')).toHaveTextContent('1'));
    expect(screen.queryByRole('status', { name: /^Loading/ })).not.toBeInTheDocument();
  });

  it('lists active and recommended combinations by the rules, with the New Combination card', async () => {
    renderHome(
      userRoutes({
        connections: [connection('xero')],
        records: [
          record(8, { job_succeeded_count: 2 }), // always authorised, ran -> active
          record(9, { job_failed_count: 1 }), // xero connected, ran -> active
          record(1, { job_succeeded_count: 1 }), // google not connected -> not active; ran -> not recommended
        ],
      }),
    );
    await screen.findByRole('heading', { name: 'E-mailed invoices to Xero' });
    const active = region('Active Combinations');
    expect(
      within(active)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['E-mailed invoices to Sheets', 'E-mailed invoices to Xero', '+ New Combination']);
    expect(within(active).getAllByText('Connected')).toHaveLength(2);
    expect(within(active).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/solutions/combinations/10004');

    const recommended = region('Recommended Combinations');
    // 1 ran, 8 ran, 11 disabled; 10 (no jobs) and 12 (coming soon, no jobs) stay; coming soon last
    expect(
      within(recommended)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Invoice reconciliation', 'Expense categorisation']);
    expect(within(recommended).getByRole('link', { name: /Use Now/ })).toHaveAttribute('href', '/solutions/combinations/workflow/10');
    expect(within(recommended).getByRole('button', { name: 'Vote to get this combination sooner' })).toBeInTheDocument();
  });

  it('says so when there is nothing active or recommended', async () => {
    renderHome({ 'GET /api/platform/combinations': { body: [combination(1)] } });
    expect(await screen.findByText(NO_ACTIVE)).toBeInTheDocument();
    expect(screen.getByText(NO_RECOMMENDED)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get Started' })).toBeInTheDocument();
  });

  it('shows a friendly message when the combinations cannot be loaded', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    renderHome({ 'GET /api/platform/combinations': { status: 500, body: { status: 'error', message: 'Database down' } } });
    expect(await screen.findByRole('alert')).toHaveTextContent(HOME_LOAD_ERROR);
    expect(counter('Combinations Available')).toHaveTextContent('–');
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });

  it("'Great!' posts the marketing topic and collapses the intro for good", async () => {
    const shell = renderHome({ 'POST /api/platform/marketing': { body: { status: 'success' } } });
    expect(screen.getByText(/new features and workflow updates/)).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Great!' }));
    expect(shell.storage.getItem('shouldCollapseNews')).toBe('true');
    await waitFor(() => expect(shell.fetch.calls.some((c) => c.path === '/api/platform/marketing')).toBe(true));
    expect(shell.fetch.calls.find((c) => c.path === '/api/platform/marketing')?.body).toEqual({ topic: NEWS_TOPIC });
    expect(screen.queryByRole('button', { name: 'Great!' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Your new home page' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('starts collapsed when shouldCollapseNews is stored', () => {
    const stored = new MemoryStorage();
    stored.setItem('shouldCollapseNews', 'true');
    renderHome({}, stored);
    expect(screen.getByRole('button', { name: 'Your new home page' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Great!' })).not.toBeInTheDocument();
  });

  it('resets the breadcrumb trail to Home', () => {
    const session = new MemoryStorage();
    session.setItem(
      'breadcrumbs',
      JSON.stringify([
        { label: 'Home', path: '/home' },
        { label: 'Solutions', path: '/solutions' },
      ]),
    );
    const shell = renderHome({}, undefined, session);
    expect(shell.container.get<Breadcrumbs>(T.Breadcrumbs).trail).toEqual([{ label: 'Home', path: '/home' }]);
  });

  it('counts a vote cast on the page at once', async () => {
    renderHome({ ...userRoutes({ votes: [] }), 'POST /api/platform/votes': { status: 201, body: { status: 'success', combination_id: 12, votes: 6 } } });
    await waitFor(() => expect(counter('Coming Soon Votes')).toHaveTextContent('0'));
    fireEvent.click(await screen.findByRole('button', { name: 'Vote to get this combination sooner' }));
    await waitFor(() => expect(counter('Coming Soon Votes')).toHaveTextContent('1'));
  });

  it('shows "Not working" with the reason on an active card whose trigger cannot listen (issue 19)', async () => {
    const reason = 'The e-mail listener could not start: port 2525 is already in use.';
    renderHome({
      ...userRoutes({
        connections: [connection('xero')],
        records: [record(8, { job_succeeded_count: 2 }), record(9, { job_failed_count: 1 })],
      }),
      'GET /api/automation/trigger-health': {
        body: {
          recipes: [
            { recipe_id: 31, combination_id: 8, workflow_id: 10008, combination_name: 'E-mailed invoices to Sheets', trigger: 'email', working: false, reason },
            {
              recipe_id: 32,
              combination_id: 9,
              workflow_id: 10009,
              combination_name: 'E-mailed invoices to Xero',
              trigger: 'email',
              working: true,
              reason: null,
            },
          ],
        },
      },
    });
    const active = region('Active Combinations');
    const card = (name: string) => within(active).getByRole('heading', { name }).closest('[data-combination-id]') as HTMLElement;
    await waitFor(() => expect(within(card('E-mailed invoices to Sheets')).getByTestId('trigger-not-working')).toHaveTextContent(`Not working: ${reason}`));
    expect(within(card('E-mailed invoices to Sheets')).getByTestId('trigger-not-working').textContent).toBe(`Not working: ${reason}`);
    expect(within(card('E-mailed invoices to Xero')).queryByTestId('trigger-not-working')).not.toBeInTheDocument();
    expect(within(active).getAllByTestId('trigger-not-working')).toHaveLength(1);
  });

  it('shows no trigger line when the health cannot be read', async () => {
    const shell = renderHome({
      ...userRoutes({ records: [record(8, { job_succeeded_count: 2 })] }),
      'GET /api/automation/trigger-health': { status: 403, body: { status: 'error', message: 'You have no automation workspace yet.' } },
    });
    await screen.findByRole('heading', { name: 'E-mailed invoices to Sheets' });
    await waitFor(() => expect(shell.fetch.calls.some((c) => c.path === '/api/automation/trigger-health')).toBe(true));
    expect(screen.queryByTestId('trigger-not-working')).not.toBeInTheDocument();
    expect(screen.queryByText(HOME_LOAD_ERROR)).not.toBeInTheDocument();
  });

  it('asks for the connections and recipes of the managed user', async () => {
    const shell = renderHome({});
    await screen.findByText(NO_RECOMMENDED).catch(() => undefined);
    const paths = shell.fetch.calls.map((c) => `${c.method} ${c.path}`);
    expect(paths).toEqual(expect.arrayContaining(['GET /api/platform/combinations', CONNECTIONS, RECIPES, 'GET /api/platform/votes']));
  });
});
