import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import TriggerConnectorView from '../../../plugins/automation-views/TriggerConnectorView';
import { renderRoute } from '../catalogue/harness';
import { CONNECTIONS, STARTER_ID, WEBHOOK, WORKATO_ID, job, recipeIdOf, setupShell, step, type Scenario } from './harness';

function show(sc: Scenario, query = '') {
  const shell = setupShell(sc);
  const id = sc.combinationId;
  renderRoute(shell, '/solutions/combinations/workflow/:id', <TriggerConnectorView combinationId={id} />, `/solutions/combinations/workflow/${id}${query}`);
  return shell;
}

/** Fluent tabs render their label twice (one copy reserves the bold width). */
const tabNames = (root: HTMLElement) =>
  within(root)
    .getAllByRole('tab')
    .map((t) => {
      const text = t.textContent ?? '';
      const half = text.slice(0, text.length / 2);
      return half + half === text ? half : text;
    });

const steps = () => screen.getByRole('navigation', { name: 'Workflow steps' });
/** combination 8's steps end in Google Sheets: it can start only with Sheets connected */
const SHEETS = [{ id: 3, name: 'Google Sheets', provider: 'google_sheets', authorization_status: 'success' }];

afterEach(() => jest.useRealTimers());

describe('trigger/connector setup view', () => {
  it('complete and running: the activate control, the steps with their status, the AI tile, Connector not found.', async () => {
    show({ combinationId: 8, status: 'complete', running: true });
    const toggle = await screen.findByRole('switch');
    await waitFor(() => expect(toggle).toBeChecked());
    const col = steps();
    expect(within(col).getByRole('heading', { name: 'Connect Source' })).toBeInTheDocument();
    expect(within(col).getByRole('heading', { name: 'Add Action' })).toBeInTheDocument();
    const tiles = within(col)
      .getAllByRole('button')
      .map((b) => b.textContent);
    // the trigger, then the connectors by order (Email 1, AI 2, Sheets 3), then End
    expect(tiles).toEqual([
      'New e-mail with attachmentsconnected',
      'Emailconnected',
      'Invoice processed by Flowmatic AIConnector not found.',
      'Google SheetsConnector not found.',
    ]);
    expect(within(col).getByText('End')).toBeInTheDocument();
    // the first tile is selected; its detail is on the right
    expect(within(col).getByRole('button', { name: /New e-mail/ })).toHaveAttribute('aria-current', 'step');
    expect(screen.getByRole('heading', { name: 'New e-mail with attachments', level: 3 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop Workflow' })).toBeInTheDocument();
    expect(screen.queryByText('Workflow Stopped')).not.toBeInTheDocument();
    // selecting the AI tile shows that its step is missing
    fireEvent.click(within(col).getByRole('button', { name: /processed by/ }));
    expect(screen.getByText(/This workflow needs flowmatic_ai:extract_invoice_fields, which is not installed yet/)).toBeInTheDocument();
  });

  it("'Stop Workflow' stops the recipe: 'Workflow Stopped', then 'Start Workflow' starts it again", async () => {
    const shell = show({ combinationId: 8, status: 'complete', running: true, connections: SHEETS });
    fireEvent.click(await screen.findByRole('button', { name: 'Stop Workflow' }));
    expect(await screen.findByText('Workflow Stopped')).toBeInTheDocument();
    expect(shell.calls('PUT', '/api/platform/proxy')[0].body).toEqual({ url: `api/managed_users/${WORKATO_ID}/recipes/${recipeIdOf(8)}/stop` });
    expect(screen.getByRole('switch')).not.toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Start Workflow' }));
    expect(await screen.findByRole('button', { name: 'Stop Workflow' })).toBeInTheDocument();
    expect(shell.calls('PUT', '/api/platform/proxy')[1].body).toEqual({ url: `api/managed_users/${WORKATO_ID}/recipes/${recipeIdOf(8)}/start` });
  });

  it("a start the engine refuses shows its message ('Connector not found. …')", async () => {
    show({
      combinationId: 8,
      status: 'complete',
      running: false,
      connections: SHEETS,
      extra: {
        'PUT /api/platform/proxy': {
          status: 409,
          body: { status: 'error', message: 'Connector not found. This workflow needs flowmatic_ai:extract_invoice_fields, which is not installed.' },
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Start Workflow' }));
    expect(await screen.findByText(/^Connector not found\. This workflow needs flowmatic_ai/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Workflow' })).toBeEnabled();
  });

  it("the start/stop button reads 'Loading...' while the recipe is unknown", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    show({
      combinationId: 8,
      status: 'complete',
      extra: {
        [`GET /api/platform/proxy?url=api/managed_users/${WORKATO_ID}/recipes/${recipeIdOf(8)}`]: async () => {
          await gate;
          return { body: { id: recipeIdOf(8), running: true, job_succeeded_count: 0, job_failed_count: 0 } };
        },
      },
    });
    expect(await screen.findByRole('button', { name: 'Loading...' })).toBeDisabled();
    release();
    expect(await screen.findByRole('button', { name: 'Stop Workflow' })).toBeEnabled();
  });

  it("not connected: 'First, connect your connectors.', the Let's Get Started panel, not connected tiles; polls every 10 s, then sends the setup call and reloads", async () => {
    jest.useFakeTimers({ advanceTimers: true });
    let connected = false;
    const shell = show({
      combinationId: 1,
      status: 'no started',
      extra: {
        [CONNECTIONS]: () => ({ body: { result: connected ? [{ id: 1, name: 'Drive', provider: 'google_drive', authorization_status: 'success' }] : [] } }),
        [`POST /api/automation/webhooks/tok1`]: { body: { status: 'ok' } },
      },
    });
    expect(await screen.findByText('First, connect your connectors.')).toBeInTheDocument();
    expect(screen.getByText("Let's Get Started – Please setup your connectors on the left.")).toBeInTheDocument();
    await waitFor(() => expect(within(steps()).getByRole('button', { name: /^Google Sheets/ })).toHaveTextContent('Connector not found.'));
    expect(within(steps()).getByRole('button', { name: /processed by/ })).toHaveTextContent('Invoice processed by Flowmatic AI');
    const polls = () => shell.calls('GET', CONNECTIONS.slice(4)).length;
    expect(polls()).toBe(1);
    await act(async () => {
      jest.advanceTimersByTime(10_000);
    });
    await waitFor(() => expect(polls()).toBe(2));
    expect(shell.calls('POST', '/api/automation/webhooks/tok1')).toHaveLength(0);
    connected = true;
    await act(async () => {
      jest.advanceTimersByTime(10_000);
    });
    await waitFor(() => expect(shell.calls('POST', '/api/automation/webhooks/tok1')).toHaveLength(1));
    const call = shell.calls('POST', '/api/automation/webhooks/tok1')[0];
    // combination 1 starts the starter recipe: its id is the recipe_id of the call
    expect(call.body).toEqual({ customer_id: WORKATO_ID, email: 'grace@example.com', instance: 66075, recipe_id: STARTER_ID, combination_id: 1 });
    expect(call.headers.Authorization).toBeUndefined();
    await waitFor(() => expect(shell.navigator.reload).toHaveBeenCalledTimes(1));
    // authorised by Drive (the card's rule), but its steps write to Sheets: no start control, the
    // missing connection named, and the connections are still checked every 10 s
    expect(await screen.findAllByText('Connect Google Sheets to start')).toHaveLength(2);
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    await act(async () => {
      jest.advanceTimersByTime(30_000);
    });
    expect(polls()).toBeGreaterThan(3);
    expect(shell.calls('PUT', '/api/platform/proxy')).toHaveLength(0);
  });

  /** Combination 8, running, its e-mail trigger's health as given. */
  const withHealth = (working: boolean, reason: string | null) =>
    show({
      combinationId: 8,
      status: 'complete',
      running: true,
      connections: SHEETS,
      extra: {
        [`GET /api/automation/recipes/${recipeIdOf(8)}/trigger-health`]: { body: { health: { trigger: 'manual_email:email_received', working, reason } } },
      },
    });

  it('a trigger that cannot listen is shown as not working, with the reason', async () => {
    withHealth(false, 'The server cannot receive e-mail: port 2525 is in use.');
    expect(await screen.findByText('The trigger is not working: The server cannot receive e-mail: port 2525 is in use.')).toBeInTheDocument();
    // the e-mail tiles (the trigger and the Email connector) do not read 'connected'
    await waitFor(() =>
      expect(
        within(steps())
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual([
        'New e-mail with attachmentsNot working',
        'EmailNot working',
        'Invoice processed by Flowmatic AIConnector not found.',
        'Google SheetsConnector not found.',
      ]),
    );
  });

  it('a trigger that listens leaves its tiles connected', async () => {
    withHealth(true, null);
    await waitFor(() =>
      expect(
        within(steps())
          .getAllByRole('button')
          .map((b) => b.textContent)
          .slice(0, 2),
      ).toEqual(['New e-mail with attachmentsconnected', 'Emailconnected']),
    );
    expect(screen.queryByText(/The trigger is not working/)).not.toBeInTheDocument();
  });

  it("a recipe whose step needs a connection not made: 'Connect Google Sheets to start', no start control, nothing started", async () => {
    const shell = show({ combinationId: 8, status: 'ready', running: false });
    expect(await screen.findByRole('heading', { name: 'Connect Google Sheets to start', level: 3 })).toBeInTheDocument();
    expect(screen.getAllByText('Connect Google Sheets to start')).toHaveLength(2);
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start Workflow' })).not.toBeInTheDocument();
    expect(shell.calls('PUT', '/api/platform/proxy')).toHaveLength(0);
  });

  it("setup on its way: 'Loading environment....' and 'Getting your workflow ready'; polls the records until complete", async () => {
    jest.useFakeTimers({ advanceTimers: true });
    const shell = show({ combinationId: 8, status: 'started', running: false, connections: SHEETS });
    expect(await screen.findByText('Loading environment....')).toBeInTheDocument();
    expect(screen.getByText('Getting your workflow ready')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Workflow$/ })).not.toBeInTheDocument();
    shell.state.status = 'complete';
    await act(async () => {
      jest.advanceTimersByTime(10_000);
    });
    expect(await screen.findByRole('switch')).toBeInTheDocument();
    expect(screen.getByText('Workflow Stopped')).toBeInTheDocument();
  });

  it('setup ready: nothing starts by itself; Start Workflow starts it once, then the recipe is re-polled every 10 s at most 8 times', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    const shell = show({ combinationId: 8, status: 'ready', running: false, connections: SHEETS });
    const start = await screen.findByRole('button', { name: 'Start Workflow' });
    expect(screen.getByText('Workflow Stopped')).toBeInTheDocument();
    for (let i = 0; i < 3; i++) {
      await act(async () => {
        jest.advanceTimersByTime(10_000);
      });
    }
    expect(shell.calls('PUT', '/api/platform/proxy')).toHaveLength(0);
    fireEvent.click(start);
    await waitFor(() => expect(shell.calls('PUT', '/api/platform/proxy')).toHaveLength(1));
    expect(shell.calls('PUT', '/api/platform/proxy')[0].body).toEqual({ url: `api/managed_users/${WORKATO_ID}/recipes/${recipeIdOf(8)}/start` });
    expect(await screen.findByRole('button', { name: 'Stop Workflow' })).toBeInTheDocument();
    const recipeGets = () => shell.calls('GET', `/api/platform/proxy?url=api/managed_users/${WORKATO_ID}/recipes/${recipeIdOf(8)}`).length;
    const before = recipeGets();
    for (let i = 0; i < 12; i++) {
      await act(async () => {
        jest.advanceTimersByTime(10_000);
      });
    }
    expect(recipeGets() - before).toBe(8);
    expect(shell.calls('PUT', '/api/platform/proxy')).toHaveLength(1);
  });

  it("'Setup Connections for Workflows': one tab per connector sorted by name, the connection widget with the workatoToken, Done closes it", async () => {
    const shell = show({
      combinationId: 8,
      status: 'complete',
      running: true,
      extra: { 'POST /api/platform/workatoToken': { body: { access_token: 'widget-token-1', expires_at: '2026-11-22T10:10:00.000Z' } } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Setup Connections for Workflows' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Setup Connections for Workflows' });
    expect(tabNames(dialog)).toEqual(['Email', 'Flowmatic AI', 'Google Sheets']);
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Google Sheets' }));
    expect(within(dialog).getByText(/Google Sheets/, { selector: 'strong' }).parentElement).toHaveTextContent('Google Sheets: not connected');
    // the connection widget page, opened for this connector with the caller's workatoToken
    const frame = (await within(dialog).findByTitle('Google Sheets connection')) as HTMLIFrameElement;
    const src = new URL(frame.getAttribute('src')!, 'http://localhost');
    expect(src.pathname).toBe('/connections/widget');
    expect(Object.fromEntries(src.searchParams)).toEqual({ token: 'widget-token-1', provider: 'google_sheets' });
    expect(shell.calls('POST', '/api/platform/workatoToken')[0].body).toEqual({ WK_USER_ID: WORKATO_ID });
    // jsdom's tabster marks the surface aria-hidden once a frame is inside it (a real browser does not), so the query includes hidden nodes
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('alertdialog', { hidden: true })).not.toBeInTheDocument());
  });

  it('the Connections tab explains each connector', async () => {
    show({ combinationId: 1, status: 'no started', connections: [{ id: 1, name: 'Drive', provider: 'google_drive', authorization_status: 'success' }] });
    fireEvent.click(await screen.findByRole('tab', { name: 'Connections' }));
    const panel = screen.getByRole('tabpanel', { name: 'Connections' });
    expect(tabNames(panel)).toEqual(['Flowmatic AI', 'Google Drive', 'Google Sheets']);
    fireEvent.click(within(panel).getByRole('tab', { name: 'Google Drive' }));
    expect(within(panel).getByText('Your Google Drive account is connected.')).toBeInTheDocument();
  });

  it('jobs tab: status, start in the user time zone, duration and error; a job opens to its steps; retry and run again', async () => {
    const failed = job('j-2', { status: 'failed', error: 'The sheet is full.', trigger_summary: 'E-mail from ap@example.com', duration_ms: 61_000 });
    const shell = show({
      combinationId: 8,
      status: 'complete',
      running: true,
      timeZone: '(GMT+01:00) Europe/Paris',
      jobs: [failed, job('j-1')],
      extra: {
        'GET /api/automation/jobs/j-2': {
          body: {
            job: failed,
            steps: [
              step(0, { name: 'E-mail received' }),
              step(1, { name: 'Extract', status: 'failed', error: 'The sheet is full.', attempts: 3 }),
              step(2, { status: 'pending' }),
            ],
          },
        },
        'POST /api/automation/jobs/j-2/retry': { body: { status: 'ok', job: { ...failed, status: 'queued' } } },
        'POST /api/automation/jobs/j-2/rerun': { body: { status: 'ok', job_id: 'j-3' } },
        'GET /api/automation/jobs/j-3': { body: { job: job('j-3', { status: 'queued', started_at: null, completed_at: null, duration_ms: null }), steps: [] } },
      },
    });
    fireEvent.click(await screen.findByRole('tab', { name: 'jobs' }));
    const list = await screen.findByRole('list', { name: 'Jobs' });
    const rows = within(list).getAllByRole('button');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('E-mail from ap@example.com');
    expect(rows[0]).toHaveTextContent('Failed');
    expect(rows[0]).toHaveTextContent('Started: 22 Nov 2026, 11:00:00 GMT+01:00');
    expect(rows[0]).toHaveTextContent('Duration: 1 min 1 s');
    expect(rows[0]).toHaveTextContent('Error: The sheet is full.');
    expect(rows[1]).toHaveTextContent('Succeeded');
    expect(rows[1]).toHaveTextContent('Duration: 1.3 s');

    fireEvent.click(rows[0]);
    const stepList = await screen.findByRole('list', { name: 'Steps' });
    expect(
      within(stepList)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringMatching(/^Trigger: E-mail receivedSucceeded/),
      expect.stringMatching(/^1\. ExtractFailed.*Tries: 3.*Error: The sheet is full\./),
      expect.stringMatching(/^2\. Step 2Pending/),
    ]);
    expect(screen.getByTestId('location')).toHaveTextContent('?job=j-2');

    fireEvent.click(screen.getByRole('button', { name: 'Retry from failed step' }));
    await waitFor(() => expect(shell.calls('POST', '/api/automation/jobs/j-2/retry')).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Run again' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('?job=j-3'));
    expect(await screen.findByText('Queued')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry from failed step' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'All jobs' }));
    expect(await screen.findByRole('list', { name: 'Jobs' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).not.toHaveTextContent('job=');
  });

  it('?job={id} opens the jobs tab on that job', async () => {
    show(
      {
        combinationId: 8,
        status: 'complete',
        running: true,
        extra: { 'GET /api/automation/jobs/j-9': { body: { job: job('j-9', { title: 'Linked job' }), steps: [step(0)] } } },
      },
      '?job=j-9',
    );
    expect(await screen.findByRole('heading', { name: 'Linked job' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'jobs' })).toHaveAttribute('aria-selected', 'true');
  });

  it('an empty job history says so', async () => {
    show({ combinationId: 8, status: 'complete', running: true });
    fireEvent.click(await screen.findByRole('tab', { name: 'jobs' }));
    expect(await screen.findByText(/No jobs yet/)).toBeInTheDocument();
  });

  it('a failed load shows the message and a retry', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    let fail = true;
    show({
      combinationId: 8,
      status: 'complete',
      running: true,
      extra: {
        'GET /api/platform/combination/8/': () =>
          fail
            ? { status: 500, body: { status: 'error', message: 'The catalogue is unavailable.' } }
            : { body: { id: 8, name: 'x', triggers: [], connectors: [] } },
      },
    });
    expect(await screen.findByText('The catalogue is unavailable.')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('navigation', { name: 'Workflow steps' })).toBeInTheDocument();
    log.mockRestore();
  });

  it('the setup call goes to the webhook once and a failing webhook is only logged', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const shell = show({
      combinationId: 8,
      status: 'no started',
      extra: { 'POST /api/automation/webhooks/tok8': { status: 500, body: { status: 'error', message: 'boom' } } },
    });
    await waitFor(() => expect(shell.calls('POST', '/api/automation/webhooks/tok8')).toHaveLength(1));
    expect(shell.calls('POST', '/api/automation/webhooks/tok8')[0].body).toMatchObject({ recipe_id: recipeIdOf(8), combination_id: 8 });
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(shell.navigator.reload).not.toHaveBeenCalled();
    expect(screen.queryByText('boom')).not.toBeInTheDocument();
    expect(WEBHOOK(8)).toContain('/api/automation/webhooks/tok8');
    log.mockRestore();
  });
});
