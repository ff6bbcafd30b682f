import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import * as T from '../../../src/app/tokens';
import type { EventBus } from '../../../src/core/event-bus';
import { CombinationCard } from '../../../src/app/components/catalogue/CombinationCard';
import type { CardStatus } from '../../../src/core/catalogue';
import type { Combination } from '../../../src/core/domain';
import { renderInShell } from '../../support/render';
import { catalogueShell, cataloguePlugins, combination, deferred, type RouteTable } from './harness';
import monitoring from '../../../plugins/monitoring';
import type { ClientPlugin } from '../../../src/app/plugin';

function renderCard(c: Combination, status: CardStatus, voted = false, routes: RouteTable = {}) {
  const shell = catalogueShell(routes);
  const events: unknown[] = [];
  shell.container
    .get<EventBus>(T.EventBus)
    .on('vote/cast')
    .subscribe((e) => events.push(e));
  renderInShell(<CombinationCard combination={c} status={status} voted={voted} />, shell, '/home');
  return { shell, events, card: screen.getByRole('group', { name: c.name.replace(/\s*\(basic\)/i, '') }) };
}

const likes = () => screen.getByTestId('likes').textContent;

describe('combination card', () => {
  it('shows icon, name, sub title, long date, connectors by order, Downloads 0 and Likes', () => {
    const c = combination(1, {
      name: 'Drive to Sheets',
      votes: 4,
      connectors: [
        { id: 2, name: 'Sheets', icon: 'x', order: 3, provider: 'google_sheets' },
        { id: 1, name: 'Drive', icon: 'x', order: 1, provider: 'google_drive' },
        { id: 6, name: 'AI', icon: 'x', order: 2, provider: 'flowmatic_ai' },
      ],
    });
    const { card } = renderCard(c, 'inactive');
    expect(within(card).getByRole('heading', { name: 'Drive to Sheets' })).toBeInTheDocument();
    expect(within(card).getByText('Sub title 1')).toBeInTheDocument();
    expect(within(card).getByText('Created November 22, 2026')).toBeInTheDocument();
    const icons = within(within(card).getByRole('list', { name: 'Connectors' })).getAllByRole('img');
    expect(icons.map((i) => i.getAttribute('aria-label'))).toEqual(['Google Drive', 'Flowmatic AI', 'Google Sheets']);
    expect(within(card).getByText(/Downloads/)).toHaveTextContent('Downloads 0');
    expect(likes()).toBe('4');
  });

  it("removes '(basic)' from the name and links basic variants to the basic route", () => {
    const { card } = renderCard(combination(2, { name: 'Invoices to Sheets (basic)' }), 'inactive');
    expect(within(card).getByRole('heading', { name: 'Invoices to Sheets' })).toBeInTheDocument();
    expect(screen.queryByText(/\(basic\)/i)).not.toBeInTheDocument();
    expect(within(card).getByRole('link', { name: /Get Now/ })).toHaveAttribute('href', '/solutions/combinations/basic-workflow/2');
  });

  it("Inactive card: badge Inactive and 'Get Now' to the setup screen", () => {
    const { card } = renderCard(combination(9), 'inactive');
    expect(within(card).getByText('Inactive')).toBeInTheDocument();
    const link = within(card).getByRole('link', { name: /Get Now/ });
    expect(link).toHaveAttribute('href', '/solutions/combinations/workflow/9');
    expect(link).toHaveTextContent('Get Now');
  });

  it("Connected card: badge Connected; 'Use Now' while the recipe runs", () => {
    const { card } = renderCard(combination(9, { running: true }), 'connected');
    expect(within(card).getByText('Connected')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: /Use Now/ })).toHaveTextContent('Use Now');
    expect(within(card).queryByText('Get Now')).not.toBeInTheDocument();
  });

  it('following the action navigates client-side', async () => {
    renderCard(combination(9), 'connected');
    fireEvent.click(screen.getByRole('link', { name: /Get Now/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/solutions/combinations/workflow/9');
  });

  it("coming-soon card: badge Coming Soon, vote button, no 'Get Now'", () => {
    const { card } = renderCard(combination(12, { status: 'coming_soon', votes: 7 }), 'coming_soon');
    expect(within(card).getByText('Coming Soon')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Vote to get this combination sooner' })).toBeEnabled();
    expect(within(card).queryByRole('link')).not.toBeInTheDocument();
    expect(likes()).toBe('7');
  });

  it("already voted (my_vote): 'Thanks for your vote', disabled, on load", () => {
    const { card } = renderCard(combination(12, { status: 'coming_soon', my_vote: true, votes: 3 }), 'coming_soon');
    expect(within(card).getByRole('button', { name: 'Thanks for your vote' })).toBeDisabled();
    expect(likes()).toBe('3');
  });

  it('already voted by the votes list: the same', () => {
    renderCard(combination(12, { status: 'coming_soon' }), 'coming_soon', true);
    expect(screen.getByRole('button', { name: 'Thanks for your vote' })).toBeDisabled();
  });

  it('voting adds one like at once, posts the vote and publishes vote/cast', async () => {
    const reply = deferred<{ status: number; body: unknown }>();
    const { shell, events } = renderCard(combination(12, { status: 'coming_soon', votes: 7 }), 'coming_soon', false, {
      'POST /api/platform/votes': () => reply.promise,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Vote to get this combination sooner' }));
    // before the server answers
    expect(likes()).toBe('8');
    expect(screen.getByRole('button', { name: 'Thanks for your vote' })).toBeDisabled();
    await waitFor(() => expect(shell.fetch.calls.some((c) => c.method === 'POST')).toBe(true));
    const post = shell.fetch.calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/api/platform/votes');
    expect(post.body).toEqual({ combination_id: 12 });
    expect(post.headers.Authorization).toBe('Bearer test-access');
    await act(async () => reply.resolve({ status: 201, body: { status: 'success', combination_id: 12, votes: 8 } }));
    await waitFor(() => expect(events).toEqual([{ combinationId: 12 }]));
    expect(likes()).toBe('8');
    expect(screen.getByRole('button', { name: 'Thanks for your vote' })).toBeDisabled();
  });

  it('a 409 (already voted) keeps the thanks and the server count', async () => {
    const { events } = renderCard(combination(12, { status: 'coming_soon', votes: 7 }), 'coming_soon', false, {
      'POST /api/platform/votes': { status: 409, body: { status: 'error', message: 'You have already voted for this combination.' } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Vote to get this combination sooner' }));
    await waitFor(() => expect(likes()).toBe('7'));
    expect(screen.getByRole('button', { name: 'Thanks for your vote' })).toBeDisabled();
    expect(events).toEqual([]);
  });

  it('a failed vote is undone and says so', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    renderCard(combination(12, { status: 'coming_soon', votes: 7 }), 'coming_soon', false, {
      'POST /api/platform/votes': { status: 500, body: { status: 'error', message: 'boom' } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Vote to get this combination sooner' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your vote could not be saved');
    expect(likes()).toBe('7');
    expect(screen.getByRole('button', { name: 'Vote to get this combination sooner' })).toBeEnabled();
    log.mockRestore();
  });

  it('shows the links plugins contribute: Monitoring on a running combination only', () => {
    const plugins = [...cataloguePlugins, monitoring];
    const running = renderCardWith(combination(9, { running: true, workflow_id: 10004 }), 'connected', plugins);
    expect(within(running).getByRole('link', { name: /^Monitoring/ })).toHaveAttribute('href', '/monitoring/workflow/10004');
  });

  it('has no Monitoring link while the recipe is stopped', () => {
    const plugins = [...cataloguePlugins, monitoring];
    const stopped = renderCardWith(combination(9, { running: false, workflow_id: 10004 }), 'inactive', plugins);
    expect(within(stopped).queryByRole('link', { name: /^Monitoring/ })).not.toBeInTheDocument();
  });
});

function renderCardWith(c: Combination, status: CardStatus, plugins: ClientPlugin[]) {
  const shell = catalogueShell({}, plugins);
  renderInShell(<CombinationCard combination={c} status={status} />, shell, '/home');
  return screen.getByRole('group', { name: c.name.replace(/\s*\(basic\)/i, '') });
}
