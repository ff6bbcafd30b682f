import { screen } from '@testing-library/react';
import ConnectDonePage, { CONNECT_OUTCOMES } from '../../../plugins/connectors/ConnectDonePage';
import { renderInShell, testShell } from '../../support/render';

function show(search: string, opts: { loggedIn?: boolean; complete?: { status?: number; body?: unknown } } = {}) {
  window.history.replaceState({}, '', `/connections/done${search}`);
  const shell = testShell({ loggedIn: opts.loggedIn ?? true, routes: opts.complete ? { 'POST /api/connections/complete': opts.complete } : {} });
  jest.spyOn(window, 'close').mockImplementation(() => undefined);
  renderInShell(<ConnectDonePage />, shell, `/connections/done${search}`);
  return shell;
}

describe('the Connect done page', () => {
  afterEach(() => jest.restoreAllMocks());

  it('finishes the parked Connect as the signed-in user and says so', async () => {
    const shell = show('?result=confirm&provider=google_drive', {
      complete: { body: { status: 'success', provider: 'google_drive', name: 'Google Drive', account: 'alice@example.com' } },
    });
    expect(await screen.findByText('Connected as alice@example.com. You can close this window.')).toBeInTheDocument();
    const call = shell.fetch.calls.find((c) => c.path === '/api/connections/complete')!;
    expect(call.method).toBe('POST');
    expect(call.headers.Authorization).toBe('Bearer test-access');
  });

  it("shows the server's refusal when another account is signed in", async () => {
    show('?result=confirm&provider=xero', {
      complete: { status: 403, body: { status: 'error', reason: 'other_account', message: CONNECT_OUTCOMES.other_account } },
    });
    expect(await screen.findByText(CONNECT_OUTCOMES.other_account)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Not connected' })).toBeInTheDocument();
  });

  it('signed out: says to sign in, and asks the server nothing', async () => {
    const shell = show('?result=confirm&provider=xero', { loggedIn: false });
    expect(await screen.findByText(CONNECT_OUTCOMES.signed_out)).toBeInTheDocument();
    expect(shell.fetch.calls).toEqual([]);
  });

  it('shows only known outcomes, never text from its address', async () => {
    show('?result=error&reason=state_mismatch&message=Your%20account%20is%20locked%2C%20call%20%2B1-555');
    expect(await screen.findByText(CONNECT_OUTCOMES.state_mismatch)).toBeInTheDocument();
    // (the test's location probe prints the address; the page itself does not)
    expect(screen.getByRole('main').textContent).toBe(`Not connected${CONNECT_OUTCOMES.state_mismatch}`);
  });

  it('an unknown reason or a forged success shows the generic failure', async () => {
    show('?result=connected&account=Your%20bank%20details%20are%20needed&reason=<b>x</b>');
    expect(await screen.findByText(CONNECT_OUTCOMES.provider)).toBeInTheDocument();
    expect(screen.getByRole('main').textContent).toBe(`Not connected${CONNECT_OUTCOMES.provider}`);
  });
});
