import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import MyAccountPage from '../../../src/app/pages/MyAccountPage';
import { MemoryStorage } from '../../../src/app/services/storage';
import { callsTo, renderRoutes, type FakeRequest } from '../auth/harness';

const KEY = 'fm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

function loggedIn(): MemoryStorage {
  const s = new MemoryStorage();
  s.setItem('isAuth', 'true');
  s.setItem('userId', '7');
  s.setItem('auth', JSON.stringify({ expire: Date.now() + 3_600_000, token: 'access-7', refresh_token: 'refresh-7' }));
  s.setItem('token', 'access-7');
  return s;
}

/** A fake /api/v1/keys: keeps the keys like the server (the secret only in the create reply). */
function keyServer() {
  let keys: Array<{ id: number; name: string; prefix: string; created_at: string; last_used_at: string | null }> = [
    { id: 3, name: 'Nightly export', prefix: 'fm_Old1', created_at: '2026-11-01T09:00:00Z', last_used_at: null },
  ];
  return {
    'GET /api/platform/users/7/': () => ({ body: { Name: 'Ada', Email: 'ada@example.com', status: 'success' } }),
    'GET /api/v1/keys': () => ({ body: { keys } }),
    'POST /api/v1/keys': (req: FakeRequest) => {
      const made = { id: 4, name: req.body.name, prefix: KEY.slice(0, 7), created_at: '2026-11-26T10:00:00Z', last_used_at: null };
      keys = [...keys, made];
      return { status: 201, body: { id: 4, name: req.body.name, key: KEY, created_at: made.created_at } };
    },
    'DELETE /api/v1/keys/4': () => {
      keys = keys.filter((k) => k.id !== 4);
      return { body: { status: 'ok', id: 4 } };
    },
  };
}

describe('My Account → API keys', () => {
  it('creates a key shown once, lists it without the secret, shows the MCP set-up, and revokes it', async () => {
    const user = userEvent.setup();
    const { calls } = renderRoutes({ path: '/my-account', routes: { '/my-account': <MyAccountPage /> }, handlers: keyServer(), storage: loggedIn() });
    await user.click(screen.getByRole('tab', { name: 'API keys' }));

    const table = await screen.findByRole('table', { name: 'API keys' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((r) =>
          within(r)
            .queryAllByRole('cell')
            .slice(0, 2)
            .map((c) => c.textContent),
        ),
    ).toEqual([[], ['Nightly export', 'fm_Old1…']]);
    expect(within(table).getByText('Never')).toBeInTheDocument();

    // the MCP client set-up: the URL of this site and the header
    expect(screen.getByTestId('mcp-url')).toHaveTextContent('http://localhost/mcp');
    expect(JSON.parse(screen.getByLabelText('MCP client configuration').textContent!)).toEqual({
      mcpServers: { flowmatic: { type: 'http', url: 'http://localhost/mcp', headers: { Authorization: 'Bearer fm_your_key' } } },
    });

    // a name is needed
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('Please give the key a name, e.g. "Reporting script".')).toBeInTheDocument();
    expect(callsTo(calls, '/api/v1/keys').filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.type(screen.getByLabelText('Key name'), 'Claude Desktop');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const secret = await screen.findByLabelText('Your new API key');
    expect(secret).toHaveValue(KEY);
    expect(screen.getByText('Copy it now: it is shown only this once.')).toBeInTheDocument();
    const posted = callsTo(calls, '/api/v1/keys').filter((c) => c.method === 'POST');
    expect(posted.map((c) => [c.body, c.headers.Authorization])).toEqual([[{ name: 'Claude Desktop' }, 'Bearer access-7']]);
    // the configuration now carries the new key
    expect(JSON.parse(screen.getByLabelText('MCP client configuration').textContent!).mcpServers.flowmatic.headers).toEqual({ Authorization: `Bearer ${KEY}` });

    // listed by name and first characters only
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'API keys' })).getAllByRole('row')).toHaveLength(3));
    const rows = within(screen.getByRole('table', { name: 'API keys' })).getAllByRole('row');
    expect(
      within(rows[2])
        .getAllByRole('cell')
        .slice(0, 2)
        .map((c) => c.textContent),
    ).toEqual(['Claude Desktop', 'fm_AbCd…']);
    expect(screen.getByRole('table', { name: 'API keys' }).textContent).not.toContain(KEY);

    // once dismissed, the secret is gone for good
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('Your new API key')).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(KEY);

    await user.click(screen.getByRole('button', { name: 'Revoke Claude Desktop' }));
    expect(await screen.findByText('The key "Claude Desktop" is revoked: calls with it are refused from now on.')).toBeInTheDocument();
    expect(callsTo(calls, '/api/v1/keys/4').map((c) => c.method)).toEqual(['DELETE']);
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'API keys' })).getAllByRole('row')).toHaveLength(2));
    expect(screen.queryByText('Claude Desktop')).not.toBeInTheDocument();
  });
});
