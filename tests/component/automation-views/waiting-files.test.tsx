import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { WaitingFiles, hasPolledTrigger, waitingText } from '../../../plugins/automation-views/WaitingFiles';
import type { EngineRecipe, WaitingItem } from '../../../plugins/automation-views/automation-api';
import { renderInShell, testShell } from '../../support/render';

const WAITING = '/api/automation/recipes/5001/waiting';

function engine(trigger: string): EngineRecipe {
  const [provider, action] = trigger.split(':');
  return {
    id: 5001,
    combination_id: 1,
    name: 'Invoice Extraction from Google Drive to Google Sheets',
    status: 'complete',
    running: true,
    job_succeeded_count: 0,
    job_failed_count: 0,
    webhook_url: null,
    inbound_email: null,
    steps: [{ index: 0, kind: 'trigger', provider, action, name: trigger, installed: true }],
  };
}

const ITEMS: WaitingItem[] = [
  {
    key: 'file_a',
    name: 'invoice-1001.pdf',
    summary: 'New file "invoice-1001.pdf" in Google Drive',
    seen_at: '2026-11-22T10:00:00.000Z',
    why: 'arrived_while_stopped',
  },
  {
    key: 'file_b',
    name: 'invoice-1002.pdf',
    summary: 'New file "invoice-1002.pdf" in Google Drive',
    seen_at: '2026-11-22T10:00:00.001Z',
    why: 'arrived_while_stopped',
  },
  { key: 'file_c', name: null, summary: 'New file "scan.png" in Google Drive', seen_at: '2026-11-22T10:00:00.002Z', why: 'arrived_while_stopped' },
];
const ALREADY: WaitingItem[] = [
  {
    key: 'file_d',
    name: 'old-invoice-1.pdf',
    summary: 'New file "old-invoice-1.pdf" in Google Drive',
    seen_at: '2026-11-22T09:00:00.000Z',
    why: 'already_there',
  },
  {
    key: 'file_e',
    name: 'old-invoice-2.pdf',
    summary: 'New file "old-invoice-2.pdf" in Google Drive',
    seen_at: '2026-11-22T09:00:00.001Z',
    why: 'already_there',
  },
];

function show(opts: { running: boolean; trigger?: string; processStatus?: number; items?: WaitingItem[] }) {
  let items = [...(opts.items ?? ITEMS)];
  const onProcessed = jest.fn();
  const shell = testShell({
    loggedIn: true,
    routes: {
      [`GET ${WAITING}`]: () => ({ body: { trigger: 'google_drive:new_file_in_folder', count: items.length, items } }),
      [`POST ${WAITING}/process`]: () => {
        if (opts.processStatus)
          return { status: opts.processStatus, body: { status: 'error', message: 'This workflow is stopped: start it, then process the waiting files.' } };
        const n = items.length;
        items = [];
        return { body: { status: 'ok', processed: n, started: n } };
      },
      [`POST ${WAITING}/skip`]: () => {
        const n = items.length;
        items = [];
        return { body: { status: 'ok', skipped: n } };
      },
    },
  });
  renderInShell(
    <WaitingFiles engine={engine(opts.trigger ?? 'google_drive:new_file_in_folder')} running={opts.running} version={0} onProcessed={onProcessed} />,
    shell,
  );
  return { shell, onProcessed };
}

describe('WaitingFiles: files that arrived while the workflow was stopped, or were already in the folder at its first Start', () => {
  it('says how many arrived, names them, and processes them on request', async () => {
    const { shell, onProcessed } = show({ running: true });
    const bar = await screen.findByTestId('waiting-files');
    expect(bar).toHaveTextContent('3 files arrived while stopped');
    expect(bar).toHaveTextContent('invoice-1001.pdf, invoice-1002.pdf, New file "scan.png" in Google Drive. Process them now, or skip them for good.');
    fireEvent.click(within(bar).getByRole('button', { name: 'Process them' }));
    await waitFor(() => expect(screen.queryByTestId('waiting-files')).not.toBeInTheDocument());
    expect(shell.fetch.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`${WAITING}/process`]);
    expect(onProcessed).toHaveBeenCalledTimes(1);
  });

  it('skips them on request', async () => {
    const { shell, onProcessed } = show({ running: true });
    fireEvent.click(within(await screen.findByTestId('waiting-files')).getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(screen.queryByTestId('waiting-files')).not.toBeInTheDocument());
    expect(shell.fetch.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`${WAITING}/skip`]);
    expect(onProcessed).not.toHaveBeenCalled();
  });

  it('while stopped offers Skip only, and says Start processes them', async () => {
    show({ running: false });
    const bar = await screen.findByTestId('waiting-files');
    expect(bar).toHaveTextContent('Start the workflow to process them, or skip them for good.');
    expect(within(bar).queryByRole('button', { name: 'Process them' })).not.toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Skip' })).toBeInTheDocument();
  });

  it("shows the server's refusal", async () => {
    show({ running: true, processStatus: 409 });
    fireEvent.click(within(await screen.findByTestId('waiting-files')).getByRole('button', { name: 'Process them' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This workflow is stopped: start it, then process the waiting files.');
  });

  it('files already in the folder at the first Start: says so, names them, and processes them on request', async () => {
    const { shell, onProcessed } = show({ running: true, items: ALREADY });
    const bar = await screen.findByTestId('waiting-files');
    expect(bar).toHaveTextContent(
      /^2 files are already in the folderold-invoice-1\.pdf, old-invoice-2\.pdf\. Process them now, or skip them for good\.Process themSkip$/,
    );
    fireEvent.click(within(bar).getByRole('button', { name: 'Process them' }));
    await waitFor(() => expect(screen.queryByTestId('waiting-files')).not.toBeInTheDocument());
    expect(shell.fetch.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`${WAITING}/process`]);
    expect(onProcessed).toHaveBeenCalledTimes(1);
  });

  it('the title counts each reason', () => {
    expect(waitingText(ALREADY.slice(0, 1))).toBe('1 file is already in the folder');
    expect(waitingText(ALREADY)).toBe('2 files are already in the folder');
    expect(waitingText(ITEMS.slice(0, 1))).toBe('1 file arrived while stopped');
    expect(waitingText([...ALREADY, ...ITEMS])).toBe('5 files wait: 2 were already in the folder, 3 arrived while stopped');
    expect(waitingText([ALREADY[0], ITEMS[0]])).toBe('2 files wait: 1 was already in the folder, 1 arrived while stopped');
    // an older server names no reason: they arrived while stopped
    expect(waitingText([{}, {}])).toBe('2 files arrived while stopped');
  });

  it('asks nothing for triggers that are heard rather than polled', async () => {
    expect(hasPolledTrigger(engine('manual_email:email_received'))).toBe(false);
    expect(hasPolledTrigger(engine('webhook:webhook_received'))).toBe(false);
    expect(hasPolledTrigger(engine('google_drive:new_file_in_folder'))).toBe(true);
    const { shell } = show({ running: true, trigger: 'manual_upload:file_uploaded' });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('waiting-files')).not.toBeInTheDocument();
    expect(shell.fetch.calls.filter((c) => c.path === WAITING)).toEqual([]);
  });
});
