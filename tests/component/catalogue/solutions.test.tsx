import { fireEvent, screen, within } from '@testing-library/react';
import * as T from '../../../src/app/tokens';
import SolutionsPage, { NO_SOLUTIONS } from '../../../src/app/pages/SolutionsPage';
import type { Breadcrumbs } from '../../../src/app/services/breadcrumbs';
import { renderInShell } from '../../support/render';
import { catalogueShell, solution } from './harness';

const SOLUTIONS = [
  solution(1, { name: 'Finance', descrption: 'Money matters' }),
  solution(2, { name: 'Operations', created_by: { user: { first_name: 'Alan' } }, created_time: '2025-03-09T08:00:00Z' }),
  solution(4, { name: 'Human Resources', status: 'coming_soon' }),
];

describe('/solutions', () => {
  it('shows a card per solution: name, description, author first name, long date', async () => {
    const shell = catalogueShell({ 'GET /api/platform/solutions': { body: SOLUTIONS } });
    renderInShell(<SolutionsPage />, shell, '/solutions');
    const finance = (await screen.findByRole('heading', { name: 'Finance' })).closest('a')!;
    expect(finance).toHaveAttribute('href', '/solution/1');
    expect(within(finance).getByText('Money matters')).toBeInTheDocument();
    expect(within(finance).getByText('By Grace')).toBeInTheDocument();
    expect(within(finance).getByText('November 22, 2026')).toBeInTheDocument();
    const ops = screen.getByRole('heading', { name: 'Operations' }).closest('a')!;
    expect(within(ops).getByText('By Alan')).toBeInTheDocument();
    expect(within(ops).getByText('March 9, 2025')).toBeInTheDocument();
    expect(screen.queryAllByText('Coming Soon')).toHaveLength(1);
    expect(shell.container.get<Breadcrumbs>(T.Breadcrumbs).trail.map((c) => c.label)).toEqual(['Home', 'Solutions']);
  });

  it("coming-soon solutions carry a 'Coming Soon' badge and are not links", async () => {
    renderInShell(<SolutionsPage />, catalogueShell({ 'GET /api/platform/solutions': { body: SOLUTIONS } }), '/solutions');
    const hr = await screen.findByRole('heading', { name: 'Human Resources' });
    expect(hr.closest('a')).toBeNull();
    expect(hr.closest('.fui-Card')).toHaveTextContent('Coming Soon');
    expect(screen.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/solution/1', '/solution/2']);
  });

  it('opens a solution with a click', async () => {
    renderInShell(<SolutionsPage />, catalogueShell({ 'GET /api/platform/solutions': { body: SOLUTIONS } }), '/solutions');
    fireEvent.click(await screen.findByRole('heading', { name: 'Finance' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/solution/1');
  });

  it('has an empty state and an error state', async () => {
    renderInShell(<SolutionsPage />, catalogueShell({ 'GET /api/platform/solutions': { body: [] } }), '/solutions');
    expect(await screen.findByText(NO_SOLUTIONS)).toBeInTheDocument();
  });

  it('says something friendly when the list fails', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    renderInShell(<SolutionsPage />, catalogueShell({ 'GET /api/platform/solutions': { status: 500, body: { message: 'x' } } }), '/solutions');
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not load this right now');
    log.mockRestore();
  });
});
