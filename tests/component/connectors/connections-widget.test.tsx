import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import ConnectionsWidget from '../../../plugins/connectors/ConnectionsWidget';
import type { WidgetConnection } from '../../../plugins/connectors/connections-api';

const base = (over: Partial<WidgetConnection>): WidgetConnection => ({
  id: 1,
  provider: 'xero',
  name: 'Xero',
  authorization_status: null,
  account_name: null,
  lost_reason: null,
  sandbox: true,
  ...over,
});

function setup(list: WidgetConnection[], search = '?token=widget-token') {
  window.history.replaceState({}, '', `/connections/widget${search}`);
  const calls: Array<{ url: string; init?: RequestInit }> = [];
  let current = list;
  global.fetch = jest.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    if (url.endsWith('/disconnect')) {
      current = current.map((c) => (url.includes(`/${c.id}/`) ? { ...c, authorization_status: null, account_name: null } : c));
      return new Response(JSON.stringify({ status: 'success', revoked: true }), { status: 200 });
    }
    return new Response(JSON.stringify({ result: current }), { status: 200 });
  }) as unknown as typeof fetch;
  const open = jest.spyOn(window, 'open').mockImplementation(() => ({}) as Window);
  render(
    <FluentProvider theme={webLightTheme}>
      <ConnectionsWidget />
    </FluentProvider>,
  );
  return { calls, open };
}

describe('the connection widget', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows one tab per connector sorted by name, with the widget token on every call', async () => {
    const { calls } = setup([
      base({ id: 3, provider: 'xero', name: 'Xero' }),
      base({ id: 1, provider: 'google_drive', name: 'Google Drive', authorization_status: 'success', account_name: 'alice@example.com' }),
      base({ id: 2, provider: 'google_sheets', name: 'Google Sheets' }),
    ]);
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.querySelector('.fui-Tab__content')?.textContent)).toEqual(['Google Drive', 'Google Sheets', 'Xero']);
    expect(screen.getByTestId('connection-status').textContent).toBe('connected as alice@example.com');
    expect(screen.getByText('Sandbox')).toBeInTheDocument();
    expect((calls[0].init?.headers as Record<string, string>).authorization).toBe('Bearer widget-token');
  });

  it('Connect opens the provider in a popup with the token; a lost connection shows why', async () => {
    const { open } = setup([base({ id: 3, lost_reason: 'The provider refused the token refresh: invalid_grant.' })]);
    expect(await screen.findByText('not connected')).toBeInTheDocument();
    expect(screen.getByText(/The connection was lost: The provider refused the token refresh/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(open).toHaveBeenCalledWith('/api/connections/connect/xero?token=widget-token', 'flowmatic-connect', expect.stringContaining('popup'));
  });

  it('Disconnect posts for the selected connection and shows it not connected', async () => {
    const { calls } = setup([base({ id: 7, provider: 'google_drive', name: 'Google Drive', authorization_status: 'success', account_name: 'a@example.com' })]);
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(screen.getByText('not connected')).toBeInTheDocument());
    expect(calls.some((c) => c.url === '/api/connections/7/disconnect' && c.init?.method === 'POST')).toBe(true);
  });

  it('says what to do when opened without a token', async () => {
    await act(async () => setup([], ''));
    expect(screen.getByText(/needs a connection token/)).toBeInTheDocument();
  });
});
