import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import BasicView from '../../../plugins/automation-views/BasicView';
import CombinationSetupPage from '../../../src/app/pages/CombinationSetupPage';
import BasicWorkflowPage from '../../../src/app/pages/BasicWorkflowPage';
import { renderRoute } from '../catalogue/harness';
import { STARTER_ID, WORKATO_ID, job, recipeIdOf, setupShell, step, type Scenario } from './harness';

function show(sc: Scenario) {
  const shell = setupShell(sc);
  renderRoute(
    shell,
    '/solutions/combinations/basic-workflow/:id',
    <BasicView combinationId={sc.combinationId} />,
    `/solutions/combinations/basic-workflow/${sc.combinationId}`,
  );
  return shell;
}

const column = () => screen.getByRole('navigation', { name: 'Workflow steps' });

describe('basic workflow view', () => {
  it("'Action' column: connectors by order, the AI step shows the workflow name, the first selected, then End", async () => {
    show({ combinationId: 2, status: 'complete', running: true });
    const col = await screen.findByRole('navigation', { name: 'Workflow steps' });
    expect(within(col).getByRole('heading', { name: 'Action' })).toBeInTheDocument();
    const tiles = within(col).getAllByRole('button');
    expect(tiles.map((t) => t.id)).toEqual(['wf-conn-0', 'wf-conn-1']);
    expect(tiles[0]).toHaveTextContent('Manual upload');
    expect(tiles[1]).toHaveTextContent('Invoice Data Extraction');
    expect(tiles[1]).not.toHaveTextContent('(basic)');
    expect(tiles[0]).toHaveAttribute('aria-current', 'step');
    expect(within(col).getByText('End')).toBeInTheDocument();
    fireEvent.click(tiles[1]);
    expect(tiles[1]).toHaveAttribute('aria-current', 'step');
    expect(screen.getByRole('region', { name: 'Workflow' })).toHaveAttribute('id', 'wf-conn-1-panel');
  });

  it("header: the start/stop control when complete, 'setting up....' when neither complete nor started, nothing when started", async () => {
    show({ combinationId: 2, status: 'complete', running: false });
    expect(await screen.findByRole('switch')).not.toBeChecked();
    cleanup();
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    show({ combinationId: 2, status: 'no started', extra: { 'POST /api/automation/webhooks/tok2': () => new Promise(() => undefined) } });
    expect(await screen.findByText('setting up....')).toBeInTheDocument();
    expect(await screen.findByText('Getting your workflow ready')).toBeInTheDocument();
    log.mockRestore();
    cleanup();
    show({ combinationId: 2, status: 'started' });
    await screen.findByRole('navigation', { name: 'Workflow steps' });
    expect(screen.queryByText('setting up....')).not.toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });

  it('no setup yet: the setup call carries the starter recipe id and the page reloads on status ok', async () => {
    const shell = show({ combinationId: 2, status: 'no started', extra: { 'POST /api/automation/webhooks/tok2': { body: { status: 'ok' } } } });
    await waitFor(() => expect(shell.navigator.reload).toHaveBeenCalled());
    expect(shell.calls('POST', '/api/automation/webhooks/tok2')[0].body).toEqual({
      customer_id: WORKATO_ID,
      email: 'grace@example.com',
      instance: 66075,
      recipe_id: STARTER_ID,
      combination_id: 2,
    });
  });

  it('a running upload workflow: a file runs it and its job opens with its steps', async () => {
    const rid = recipeIdOf(2);
    const shell = show({
      combinationId: 2,
      status: 'complete',
      running: true,
      extra: {
        [`POST /api/automation/recipes/${rid}/uploads`]: { body: { status: 'ok', job_id: 'up-1' } },
        'GET /api/automation/jobs/up-1': {
          body: {
            job: job('up-1', { title: 'Invoice Data Extraction Basic', status: 'running' }),
            steps: [step(0, { name: 'File uploaded' }), step(1, { status: 'running' })],
          },
        },
      },
    });
    const form = await screen.findByRole('form', { name: 'Run the workflow' });
    fireEvent.click(within(form).getByRole('button', { name: 'Run now' }));
    expect(await screen.findByText('Choose a file or enter some text to run the workflow.')).toBeInTheDocument();
    const file = new File(['%PDF-1.4 invoice'], 'invoice.pdf', { type: 'application/pdf' });
    fireEvent.change(within(form).getByLabelText('File to process'), { target: { files: [file] } });
    fireEvent.click(within(form).getByRole('button', { name: 'Run now' }));
    expect(await screen.findByRole('heading', { name: 'Invoice Data Extraction Basic' })).toBeInTheDocument();
    expect(shell.calls('POST', `/api/automation/recipes/${rid}/uploads`)).toHaveLength(1);
    expect(screen.getByTestId('location')).toHaveTextContent('?job=up-1');
    expect(screen.getByRole('tab', { name: 'jobs' })).toHaveAttribute('aria-selected', 'true');
  });

  it('a stopped upload workflow asks to start it instead of offering the form', async () => {
    show({ combinationId: 2, status: 'complete', running: false });
    expect(await screen.findByText('Start the workflow to run it with a file.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Run the workflow' })).not.toBeInTheDocument();
    expect(within(column()).getAllByRole('button')[0]).toHaveTextContent('connected');
  });
});

describe('the real setup pages use these views', () => {
  it('combination 8 on /workflow/{id} shows the trigger/connector view inside the shell', async () => {
    const shell = setupShell({ combinationId: 8, status: 'complete', running: true });
    renderRoute(shell, '/solutions/combinations/workflow/:id', <CombinationSetupPage />, '/solutions/combinations/workflow/8');
    expect(await screen.findByRole('heading', { name: 'Connect Source' })).toBeInTheDocument();
  });

  it('combination 2 on /basic-workflow/{id} shows the basic view', async () => {
    const shell = setupShell({ combinationId: 2, status: 'complete', running: true });
    renderRoute(shell, '/solutions/combinations/basic-workflow/:id', <BasicWorkflowPage />, '/solutions/combinations/basic-workflow/2');
    expect(await screen.findByRole('heading', { name: 'Action' })).toBeInTheDocument();
  });
});
