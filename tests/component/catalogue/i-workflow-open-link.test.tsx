import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Shell } from '../../../src/app/Shell';
import SolutionWorkflowsPage from '../../../src/app/pages/SolutionWorkflowsPage';
import WorkflowPage from '../../../src/app/pages/WorkflowPage';
import { definePlugin, type WorkflowViewProps } from '../../../src/app/plugin';
import { LocationProbe } from '../../support/render';
import { catalogueShell, solution, workflow } from './harness';

function DroppedInView({ workflowId }: WorkflowViewProps) {
  return <p>dropped-in view for {workflowId}</p>;
}

// a plugin dropped into plugins/: a page for workflow 30001, and no combinations anywhere
const droppedIn = definePlugin({ id: 'dropped-in', workflowViews: { 30001: { load: async () => ({ default: DroppedInView }) } } });

function setup() {
  const shell = catalogueShell(
    {
      'GET /api/platform/solution/1/': {
        body: {
          ...solution(1, { name: 'Finance' }),
          workflows: [workflow(30001, { name: 'Receipt Sorter', descrption: 'Sorts receipts' }), workflow(10005, { name: 'Payroll Check' })],
        },
      },
      'GET /api/platform/workflows/30001/': { body: workflow(30001, { name: 'Receipt Sorter', descrption: 'Sorts receipts' }) },
    },
    [droppedIn],
  );
  render(
    <Shell container={shell.container}>
      <MemoryRouter initialEntries={['/solution/1']}>
        <Routes>
          <Route path="/solution/:id" element={<SolutionWorkflowsPage />} />
          <Route path="/workflow/:id" element={<WorkflowPage />} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </Shell>,
  );
  return shell;
}

const cardOf = (name: string) => screen.getByRole('heading', { name, level: 3 }).closest('[data-workflow-id]')!.parentElement as HTMLElement;

describe('every workflow page is reachable from its card (issue 25)', () => {
  it("a workflow with a registered page gets an 'Open' link beside the card's link; one without keeps the card only", async () => {
    setup();
    await screen.findByRole('heading', { name: 'Receipt Sorter', level: 3 });
    const sorter = within(cardOf('Receipt Sorter')).getAllByRole('link');
    expect(sorter.map((l) => [l.getAttribute('href'), l.textContent, l.getAttribute('aria-label')])).toEqual([
      ['/solutions/combinations/30001', 'Receipt SorterSorts receiptsCombinations', null],
      ['/workflow/30001', 'Open', 'Open Receipt Sorter'],
    ]);
    // the card's link holds nothing interactive: 'Open' is its sibling, never nested
    expect(sorter[0].querySelectorAll('a, button, input, [tabindex]')).toHaveLength(0);
    expect(sorter[0].contains(sorter[1])).toBe(false);
    // the spec's card text stays: the card is the link to its combinations, with its 'Combinations' label
    expect(sorter[0]).toHaveTextContent(/Combinations$/);
    const payroll = within(cardOf('Payroll Check')).getAllByRole('link');
    expect(payroll.map((l) => l.getAttribute('href'))).toEqual(['/solutions/combinations/10005']);
  });

  it("'Open' leads to /workflow/{id}, which shows the plugin's page", async () => {
    const user = userEvent.setup();
    setup();
    await user.click(await screen.findByRole('link', { name: 'Open Receipt Sorter' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/workflow\/30001$/);
    expect(await screen.findByText('dropped-in view for 30001')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Receipt Sorter', level: 1 })).toBeInTheDocument();
  });
});
