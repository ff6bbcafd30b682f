import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import ConnectionsWidget from '../../../plugins/connectors/ConnectionsWidget';
import type { WidgetConnection } from '../../../plugins/connectors/connections-api';

/** An API-key connector as GET /api/connections lists it (declared by a plugin: tests/server/connections/fixtures). */
const keyed = (over: Partial<WidgetConnection> = {}): WidgetConnection => ({
  id: 9,
  provider: 'fixture_keyed',
  name: 'Fixture Keyed',
  authorization_status: null,
  account_name: null,
  lost_reason: null,
  sandbox: false,
  auth: 'api-key',
  key_schema: {
    type: 'object',
    required: ['apiKey', 'workspace'],
    properties: {
      apiKey: { type: 'string', title: 'API key', minLength: 12, maxLength: 200 },
      workspace: { type: 'string', title: 'Workspace', minLength: 1, maxLength: 60 },
    },
  },
  key_ui_schema: { apiKey: { 'ui:widget': 'password' } },
  ...over,
});

function setup() {
  window.history.replaceState({}, '', '/connections/widget?token=widget-token');
  const calls: Array<{ url: string; init?: RequestInit }> = [];
  let current = [keyed()];
  global.fetch = jest.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    if (url === '/api/connections/key/fixture_keyed') {
      current = [keyed({ authorization_status: 'success', account_name: 'acme workspace' })];
      return new Response(JSON.stringify({ status: 'success', provider: 'fixture_keyed', name: 'Fixture Keyed', account: 'acme workspace' }), { status: 200 });
    }
    return new Response(JSON.stringify({ result: current }), { status: 200 });
  }) as unknown as typeof fetch;
  render(
    <FluentProvider theme={webLightTheme}>
      <ConnectionsWidget />
    </FluentProvider>,
  );
  return { calls };
}

describe('the connection widget with an API-key connector', () => {
  afterEach(() => jest.restoreAllMocks());

  it('renders the key form from its schema, checks it, posts the values with the widget token and shows it connected', async () => {
    const { calls } = setup();
    const key = (await screen.findByLabelText(/API key/)) as HTMLInputElement;
    const workspace = screen.getByLabelText(/Workspace/) as HTMLInputElement;
    expect(key.type).toBe('password');
    expect(workspace.type).toBe('text');
    expect(screen.queryByRole('button', { name: 'Disconnect' })).toBeNull();

    // too short: the schema's own rule, worded as the server words it; nothing is sent
    await userEvent.type(key, 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findAllByText('API key must be at least 12 characters long.')).not.toHaveLength(0);
    expect(screen.getAllByText('Workspace is required.')).not.toHaveLength(0);
    expect(calls.filter((c) => c.url.startsWith('/api/connections/key/'))).toEqual([]);

    await userEvent.clear(key);
    await userEvent.type(key, 'fk_live_0123456789');
    await userEvent.type(workspace, 'acme');
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(screen.getByTestId('connection-status').textContent).toBe('connected as acme workspace'));
    const sent = calls.filter((c) => c.url === '/api/connections/key/fixture_keyed');
    expect(sent).toHaveLength(1);
    expect(sent[0].init?.method).toBe('POST');
    expect((sent[0].init?.headers as Record<string, string>).authorization).toBe('Bearer widget-token');
    expect(JSON.parse(String(sent[0].init?.body))).toEqual({ apiKey: 'fk_live_0123456789', workspace: 'acme' });
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
  });
});
