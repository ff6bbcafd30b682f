import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import * as T from '../../../src/app/tokens';
import type { EventBus } from '../../../src/core/event-bus';
import CombinationSetupPage from '../../../src/app/pages/CombinationSetupPage';
import BasicWorkflowPage from '../../../src/app/pages/BasicWorkflowPage';
import { definePlugin, type CombinationViewProps } from '../../../src/app/plugin';
import type { Breadcrumbs } from '../../../src/app/services/breadcrumbs';
import connectors from '../../../plugins/connectors';
import costEstimator from '../../../plugins/cost-estimator';
import { RECIPES, catalogueShell, combination, record, renderRoute, userRoutes } from './harness';

const view = (label: string) => ({
  load: async () => ({ default: ({ combinationId }: CombinationViewProps) => <p>{`${label} view for ${combinationId}`}</p> }),
});

const views = definePlugin({
  id: 'fake-setup-views',
  combinationViews: { 1: view('trigger'), 10: view('reconciliation'), basic: view('basic'), default: view('default') },
});

function setup(
  id: number,
  name: string,
  route: 'workflow' | 'basic-workflow' = 'workflow',
  records = [record(id, { name: 'My recipe', job_succeeded_count: 3, job_failed_count: 1 })],
) {
  const shell = catalogueShell(
    { [`GET /api/platform/combination/${id}/`]: { body: combination(id, { name, sub_title: 'What it does' }) }, ...userRoutes({ records }) },
    [connectors, costEstimator, views],
  );
  const Page = route === 'workflow' ? CombinationSetupPage : BasicWorkflowPage;
  renderRoute(shell, `/solutions/combinations/${route}/:id`, <Page />, `/solutions/combinations/${route}/${id}`);
  return shell;
}

const fee = () => screen.getByTestId('estimated-fee').textContent;

describe('combination setup screens', () => {
  it('header with the combination name, the plugin view for the id, recipe details', async () => {
    const shell = setup(10, 'Invoice reconciliation');
    expect(await screen.findByText('reconciliation view for 10')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Invoice reconciliation', level: 1 })).toBeInTheDocument();
    const details = screen.getByRole('group', { name: 'Recipe details' });
    await waitFor(() => expect(within(details).getByText('My recipe')).toBeInTheDocument());
    expect(within(details).getByText('Complete')).toBeInTheDocument();
    expect(within(details).getByText('3')).toBeInTheDocument();
    expect(shell.container.get<Breadcrumbs>(T.Breadcrumbs).trail.map((c) => c.label)).toEqual(['Home', 'Invoice reconciliation']);
  });

  it('uses the default view for other combinations', async () => {
    setup(5, 'Something else');
    expect(await screen.findByText('default view for 5')).toBeInTheDocument();
  });

  it("basic route: '(basic)' removed from the header, the basic view", async () => {
    setup(2, 'Drive invoices to Sheets (basic)', 'basic-workflow');
    expect(await screen.findByText('basic view for 2')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Drive invoices to Sheets', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(/\(basic\)/)).not.toBeInTheDocument();
  });

  it('says so when the user has no recipe yet', async () => {
    setup(5, 'Something else', 'workflow', []);
    expect(await screen.findByText('No recipe has been set up for this combination yet.')).toBeInTheDocument();
  });

  it('cost estimator: default estimate for 25 calls, then follows the slider (0.01 per call)', async () => {
    setup(5, 'Something else');
    await screen.findByText('default view for 5');
    const slider = screen.getByRole('slider', { name: /Calls per month/ });
    expect(slider).toHaveAttribute('min', '100');
    expect(slider).toHaveAttribute('max', '1000000');
    expect(slider).toHaveAttribute('step', '100');
    expect(slider).toHaveValue('100');
    expect(fee()).toBe('$37.23');
    expect(screen.getByText(/based on 25 calls/)).toBeInTheDocument();
    expect(screen.getByText('USD / month')).toBeInTheDocument();
    fireEvent.change(slider, { target: { value: '1000' } });
    expect(fee()).toBe('$46.98');
    fireEvent.change(slider, { target: { value: '1100' } });
    expect(fee()).toBe('$62.71');
    fireEvent.change(slider, { target: { value: '1000000' } });
    expect(fee()).toBe('$10,110.64');
  });

  it('cost estimator uses the per-request price of the combination (6: 0.06)', async () => {
    setup(6, 'Audio emotions');
    await screen.findByText('default view for 6');
    expect(fee()).toBe('$38.48');
    fireEvent.change(screen.getByRole('slider', { name: /Calls per month/ }), { target: { value: '200' } });
    expect(fee()).toBe('$48.98');
  });

  it('the recipe sidebar follows a start and a stop published on the event bus, without blanking', async () => {
    let running = false;
    let succeeded = 3;
    const shell = catalogueShell(
      {
        ...userRoutes(),
        'GET /api/platform/combination/10/': () => ({ body: combination(10, { name: 'Invoice reconciliation', running }) }),
        [RECIPES]: () => ({
          body: { workato_recipes: [record(10, { name: 'My recipe', job_succeeded_count: succeeded, status: running ? 'complete' : 'ready' })] },
        }),
      },
      [connectors, costEstimator, views],
    );
    renderRoute(shell, '/solutions/combinations/workflow/:id', <CombinationSetupPage />, '/solutions/combinations/workflow/10');
    const details = await screen.findByRole('group', { name: 'Recipe details' });
    await waitFor(() => expect(within(details).getByText('My recipe')).toBeInTheDocument());
    expect(within(details).getByText('Not running')).toBeInTheDocument();
    expect(within(details).getByText('Ready')).toBeInTheDocument();
    const bus = shell.container.get<EventBus>(T.EventBus);
    const reads = () => shell.fetch.calls.filter((c) => c.path === '/api/platform/combination/10/' || c.path === RECIPES.slice(4)).length;
    const before = reads();

    // another combination's start changes nothing
    act(() => bus.publish('recipe/started', { combinationId: 11, recipeId: 5011 }));
    expect(within(details).getByText('Not running')).toBeInTheDocument();
    expect(reads()).toBe(before);

    // this one's start: the badge at once, then the records and the combination read again
    running = true;
    succeeded = 4;
    act(() => bus.publish('recipe/started', { combinationId: 10, recipeId: 5010 }));
    expect(within(details).getByText('Running')).toBeInTheDocument();
    expect(screen.getByText('reconciliation view for 10')).toBeInTheDocument();
    expect(within(details).getByText('My recipe')).toBeInTheDocument(); // the old record stays while the new one loads
    await waitFor(() => expect(within(details).getByText('Complete')).toBeInTheDocument());
    expect(within(details).getByText('4')).toBeInTheDocument();
    expect(reads()).toBe(before + 2);

    // a stop
    running = false;
    act(() => bus.publish('recipe/stopped', { combinationId: 10, recipeId: 5010 }));
    expect(within(details).getByText('Not running')).toBeInTheDocument();
    await waitFor(() => expect(within(details).getByText('Ready')).toBeInTheDocument());
    expect(within(details).getByText('Not running')).toBeInTheDocument();
    expect(screen.getByText('reconciliation view for 10')).toBeInTheDocument();
  });
});
