import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import * as T from '../../../src/app/tokens';
import SolutionWorkflowsPage, { NOTHING_MATCHED } from '../../../src/app/pages/SolutionWorkflowsPage';
import type { Breadcrumbs } from '../../../src/app/services/breadcrumbs';
import { catalogueShell, renderRoute, solution, workflow } from './harness';

const WORKFLOWS = [
  workflow(20001, { name: 'Expense Categorisation', icon: 'coming_soon' }),
  workflow(10004, { name: 'Invoice Data Extraction' }),
  workflow(10006, { name: 'Document Data Extraction', icon: 'document' }),
];

function setup(searchReply: unknown = [workflow(10004, { name: 'Invoice Data Extraction' })]) {
  const shell = catalogueShell({
    'GET /api/platform/solution/1/': { body: { ...solution(1, { name: 'Finance' }), workflows: WORKFLOWS } },
    'POST /api/platform/searchWorkflowTemplate': { body: searchReply },
  });
  renderRoute(shell, '/solution/:id', <SolutionWorkflowsPage />, '/solution/1');
  return shell;
}

const searches = (shell: ReturnType<typeof setup>) => shell.fetch.calls.filter((c) => c.path === '/api/platform/searchWorkflowTemplate');
const loads = (shell: ReturnType<typeof setup>) => shell.fetch.calls.filter((c) => c.path === '/api/platform/solution/1/');
const box = () => screen.getByRole('searchbox', { name: 'Search workflows' });
const type = (value: string) => fireEvent.change(box(), { target: { value } });
const names = () => screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);

describe('/solution/{id} workflows', () => {
  afterEach(() => jest.useRealTimers());

  it('shows the solution name and workflow cards, coming soon last, each card the one link to its combinations', async () => {
    const shell = setup();
    expect(await screen.findByRole('heading', { name: 'Finance', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Workflows', level: 1 })).toBeInTheDocument();
    expect(names()).toEqual(['Invoice Data Extraction', 'Document Data Extraction', 'Expense Categorisation']);
    expect(screen.getAllByText('Coming Soon')).toHaveLength(1);
    // issue 8, item 6: the whole card is the link; 'Combinations' is text inside it, nothing nested
    // (a workflow with its own page also has an 'Open' link beside its card: i-workflow-open-link.test.tsx)
    const links = screen.getAllByRole('link').filter((l) => l.hasAttribute('data-workflow-id'));
    expect(links.map((l) => [l.querySelector('h3')?.textContent, l.getAttribute('href')])).toEqual([
      ['Invoice Data Extraction', '/solutions/combinations/10004'],
      ['Document Data Extraction', '/solutions/combinations/10006'],
      ['Expense Categorisation', '/solutions/combinations/20001'],
    ]);
    for (const l of links) {
      expect(l).toHaveTextContent(/Combinations$/);
      expect(l.querySelectorAll('a, button, input, [tabindex]')).toHaveLength(0);
    }
    expect(shell.container.get<Breadcrumbs>(T.Breadcrumbs).trail.map((c) => c.label)).toEqual(['Home', 'Finance']);
  });

  it('sends a search only after a 700 ms pause', async () => {
    jest.useFakeTimers();
    const shell = setup();
    await screen.findByRole('heading', { name: 'Finance', level: 2 });
    type('inv');
    await act(async () => jest.advanceTimersByTime(699));
    expect(searches(shell)).toHaveLength(0);
    await act(async () => jest.advanceTimersByTime(1));
    await waitFor(() => expect(searches(shell)).toHaveLength(1));
    expect(searches(shell)[0].body).toEqual({ SolutionId: 1, Query: 'inv' });
    expect(searches(shell)[0].headers.Authorization).toBe('Bearer test-access');
    await waitFor(() => expect(names()).toEqual(['Invoice Data Extraction']));
  });

  it('restarts the pause on each keystroke and sends only the last term', async () => {
    jest.useFakeTimers();
    const shell = setup();
    await screen.findByRole('heading', { name: 'Finance', level: 2 });
    type('inv');
    await act(async () => jest.advanceTimersByTime(500));
    type('invoice');
    await act(async () => jest.advanceTimersByTime(500));
    expect(searches(shell)).toHaveLength(0);
    await act(async () => jest.advanceTimersByTime(200));
    await waitFor(() => expect(searches(shell)).toHaveLength(1));
    expect(searches(shell)[0].body).toEqual({ SolutionId: 1, Query: 'invoice' });
  });

  it('sends nothing for 2 characters', async () => {
    jest.useFakeTimers();
    const shell = setup();
    await screen.findByRole('heading', { name: 'Finance', level: 2 });
    type('in');
    await act(async () => jest.advanceTimersByTime(5000));
    expect(searches(shell)).toHaveLength(0);
    expect(names()).toHaveLength(3);
  });

  it('clearing the box reloads the full list', async () => {
    jest.useFakeTimers();
    const shell = setup();
    await screen.findByRole('heading', { name: 'Finance', level: 2 });
    expect(loads(shell)).toHaveLength(1);
    type('invoice');
    await act(async () => jest.advanceTimersByTime(700));
    await waitFor(() => expect(names()).toEqual(['Invoice Data Extraction']));
    type('');
    await waitFor(() => expect(loads(shell)).toHaveLength(2));
    await waitFor(() => expect(names()).toHaveLength(3));
  });

  it("an empty result says 'Sorry nothing matched your search'", async () => {
    jest.useFakeTimers();
    setup([]);
    await screen.findByRole('heading', { name: 'Finance', level: 2 });
    type('zzz');
    await act(async () => jest.advanceTimersByTime(700));
    expect(await screen.findByText(NOTHING_MATCHED)).toBeInTheDocument();
  });
});
