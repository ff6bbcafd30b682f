import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { TargetPicker, type RecipeTargets } from '../../../plugins/automation-views/TargetPicker';
import { ConnectionsPane } from '../../../plugins/automation-views/ConnectionsPane';
import { renderInShell, testShell } from '../../support/render';
import type { FakeCall } from '../../support/fake-fetch';

const TARGETS = '/api/plugins/connectors/recipes/5001/targets';

function targets(fields: Partial<RecipeTargets> = {}): RecipeTargets {
  return {
    recipe_id: 5001,
    combination_name: 'Google Drive Invoices to Google Sheets',
    needs: { folder: true, sheet: true },
    folder: { id: 'f1', name: 'Google Drive Invoices to Google Sheets' },
    sheet: { id: 's1', name: 'Google Drive Invoices to Google Sheets' },
    trigger: {
      name: 'New file in a Google Drive folder',
      watching: true,
      last_polled_at: '2026-11-22T10:00:00.000Z',
      last_error: null,
      items: 3,
      interval_ms: 60_000,
    },
    ...fields,
  };
}

describe('TargetPicker (the setup screen detail column)', () => {
  it("shows the watched folder and the trigger state; picks another folder from the caller's own list", async () => {
    let current = targets();
    const shell = testShell({
      loggedIn: true,
      routes: {
        [`GET ${TARGETS}`]: () => ({ body: current }),
        'GET /api/plugins/connectors/picker?kind=folder': {
          body: {
            kind: 'folder',
            items: [
              { id: 'f1', name: 'Google Drive Invoices to Google Sheets' },
              { id: 'f2', name: 'Supplier invoices' },
            ],
          },
        },
        [`PUT ${TARGETS}`]: (call: FakeCall) => {
          current = targets({ folder: { id: (call.body as { folder_id: string }).folder_id, name: 'Supplier invoices' } });
          return { body: current };
        },
      },
    });
    renderInShell(<TargetPicker recipeId={5001} kind="folder" />, shell);
    expect(await screen.findByTestId('target-folder')).toHaveTextContent('Google Drive folder: Google Drive Invoices to Google Sheets');
    expect(screen.getByTestId('trigger-state')).toHaveTextContent(/^Watching for new files every 1 min, last looked at .*\. 3 files so far\.$/);
    fireEvent.click(screen.getByRole('button', { name: 'Choose another folder' }));
    const select = await screen.findByRole('combobox', { name: 'Your folders' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Google Drive Invoices to Google Sheets', 'Supplier invoices']);
    fireEvent.change(select, { target: { value: 'f2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use this folder' }));
    await waitFor(() => expect(screen.getByTestId('target-folder')).toHaveTextContent('Google Drive folder: Supplier invoices'));
    expect(shell.fetch.calls.find((c) => c.method === 'PUT')!.body).toEqual({ folder_id: 'f2' });
  });

  it("shows a lost connection as the trigger's warning, and a refused picker as an error", async () => {
    const shell = testShell({
      loggedIn: true,
      routes: {
        [`GET ${TARGETS}`]: {
          body: targets({
            trigger: { ...targets().trigger!, last_error: 'Google Drive is not connected: connect it in the connections tab, then try again.' },
          }),
        },
        'GET /api/plugins/connectors/picker?kind=spreadsheet': {
          status: 409,
          body: { status: 'error', message: 'Google Sheets is not connected: connect it in the connections tab, then try again.' },
        },
      },
    });
    renderInShell(
      <>
        <TargetPicker recipeId={5001} kind="folder" />
        <TargetPicker recipeId={5001} kind="spreadsheet" />
      </>,
      shell,
    );
    expect(await screen.findByText(/^The folder could not be checked: Google Drive is not connected/)).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Choose another spreadsheet' }));
    expect(await screen.findByText(/^Google Sheets is not connected/)).toBeInTheDocument();
  });

  it('shows nothing when the server has no connectors plugin (404)', async () => {
    const shell = testShell({ loggedIn: true });
    const { container } = renderInShell(<TargetPicker recipeId={5001} kind="folder" />, shell);
    await waitFor(() => expect(shell.fetch.calls.some((c) => c.path === TARGETS)).toBe(true));
    await act(async () => undefined);
    expect(container.querySelector('section')).toBeNull();
  });
});

describe('ConnectionsPane', () => {
  it('opens the connection widget for the selected connector with a workatoToken, and follows what the widget reports', async () => {
    const shell = testShell({
      loggedIn: true,
      routes: { 'POST /api/platform/workatoToken': { body: { access_token: 'wt-1', expires_at: '2026-11-22T10:10:00.000Z' } } },
    });
    const connectors = [
      { id: 1, name: 'Google Drive', icon: 'google_drive', order: 1, provider: 'google_drive' },
      { id: 2, name: 'Google Sheets', icon: 'google_sheets', order: 3, provider: 'google_sheets' },
    ];
    renderInShell(<ConnectionsPane connectors={connectors} connections={[]} idPrefix="t" />, shell);
    const frame = (await screen.findByTitle('Google Drive connection')) as HTMLIFrameElement;
    expect(frame.getAttribute('src')).toBe('/connections/widget?token=wt-1&provider=google_drive');
    expect(shell.fetch.calls.find((c) => c.path === '/api/platform/workatoToken')!.body).toEqual({ WK_USER_ID: 100001 });
    expect(screen.getByText('Google Drive', { selector: 'strong' }).parentElement).toHaveTextContent('Google Drive: not connected');
    // the embedded widget tells the page after a Connect (same origin only)
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: 'https://elsewhere.example',
          data: { type: 'flowmatic:connections', connections: [{ provider: 'google_drive', authorization_status: 'success' }] },
        }),
      );
    });
    expect(screen.getByText('Google Drive', { selector: 'strong' }).parentElement).toHaveTextContent('Google Drive: not connected');
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'flowmatic:connections', connections: [{ provider: 'google_drive', authorization_status: 'success' }] },
        }),
      );
    });
    expect(screen.getByText('Google Drive', { selector: 'strong' }).parentElement).toHaveTextContent('Google Drive: connected');
    expect(screen.getByText('Your Google Drive account is connected.')).toBeInTheDocument();
  });
});
