import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Body1, Button, MessageBar, MessageBarBody, Spinner, Text, Title3 } from '@fluentui/react-components';
import { RovingTab, RovingTabList, SchemaForm } from '../../src/app';
import { CONNECT_CHANNEL, CONNECTIONS_CHANGED, connectKey, connectUrl, disconnect, fetchConnections, type WidgetConnection } from './connections-api';
import { keyFormValidator } from './key-form-validator';

/** How often the widget re-reads the connections while open (spec: connection polling every 10 s). */
const POLL_MS = 10_000;

function tokenFromQuery(): string {
  return new URLSearchParams(window.location.search).get('token') ?? '';
}

/** `?provider=google_drive,google_sheets`: only those connectors (a setup screen's tab shows one). */
function providersFromQuery(): string[] {
  return (new URLSearchParams(window.location.search).get('provider') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * /connections/widget?token=…: the connection widget the setup screens open in their modal or
 * tab pane with the workatoToken. One tab per connector sorted by name; each says connected (with
 * the account) or not connected (with why, when a connection was lost), with Connect (a popup to
 * the provider's consent page; providers refuse to be framed) and Disconnect. A connector
 * declared with an API key shows its key form (rendered from the schema the server sends) in
 * place of Connect.
 */
export default function ConnectionsWidget() {
  const [token] = useState(tokenFromQuery);
  const [only] = useState(providersFromQuery);
  const [connections, setConnections] = useState<WidgetConnection[] | undefined>();
  const [selected, setSelected] = useState<string>('');
  const [error, setError] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const popup = useRef<Window | null>(null);

  const load = useCallback(async () => {
    if (!token) return;
    try {
      const all = await fetchConnections(token);
      const list = only.length ? all.filter((c) => only.includes(c.provider)) : all;
      setConnections(list);
      // embedded in a setup screen: tell it, so its tiles and counters follow without waiting for their own poll
      if (window.parent !== window)
        window.parent.postMessage(
          { type: CONNECTIONS_CHANGED, connections: list.map((c) => ({ provider: c.provider, authorization_status: c.authorization_status })) },
          window.location.origin,
        );
      setSelected((s) => s || list[0]?.provider || '');
      setError('');
    } catch (e) {
      setError((e as Error).message);
    }
  }, [token, only]);

  useEffect(() => {
    void load();
    const timer = window.setInterval(() => void load(), POLL_MS);
    const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(CONNECT_CHANNEL);
    if (channel) {
      channel.onmessage = (e: MessageEvent<{ result?: string; message?: string }>) => {
        if (e.data?.result === 'error' && e.data.message) setError(e.data.message);
        void load();
      };
    }
    return () => {
      window.clearInterval(timer);
      channel?.close();
    };
  }, [load]);

  if (!token) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>This page needs a connection token: open it from a combination's setup screen.</MessageBarBody>
      </MessageBar>
    );
  }
  if (!connections)
    return error ? (
      <MessageBar intent="error">
        <MessageBarBody>{error}</MessageBarBody>
      </MessageBar>
    ) : (
      <Spinner label="Loading connections…" />
    );

  const current = connections.find((c) => c.provider === selected) ?? connections[0];
  const connected = current?.authorization_status === 'success';

  const onConnect = () => {
    if (!current) return;
    setError('');
    popup.current = window.open(connectUrl(token, current.provider), 'flowmatic-connect', 'popup,width=520,height=680');
    if (!popup.current) setError('Your browser blocked the sign-in window: allow pop-ups for this site, then press Connect again.');
  };
  const onKey = async (values: Record<string, unknown>) => {
    if (!current) return;
    setBusy(true);
    setError('');
    try {
      await connectKey(token, current.provider, values);
      await load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const onDisconnect = async () => {
    if (!current) return;
    setBusy(true);
    try {
      await disconnect(token, current.id);
      await load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label="Connections" style={{ display: 'grid', gap: 16, padding: only.length ? 8 : 16 }}>
      {connections.length > 1 && (
        <RovingTabList selectedValue={current?.provider} onTabSelect={(_, d) => setSelected(String(d.value))}>
          {connections.map((c) => (
            <RovingTab key={c.provider} value={c.provider}>
              {c.name}
            </RovingTab>
          ))}
        </RovingTabList>
      )}
      {connections.length === 0 && <Body1>This connector cannot be connected on this server.</Body1>}
      {error && (
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {current && (
        <div role="tabpanel" aria-label={current.name} style={{ display: 'grid', gap: 12 }}>
          <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
            <Title3 as="h2">{current.name}</Title3>
            {current.sandbox && (
              <Badge appearance="tint" color="warning">
                Sandbox
              </Badge>
            )}
          </div>
          <Body1 data-testid="connection-status">
            {connected ? (
              <>
                <Badge appearance="filled" color="success">
                  connected
                </Badge>{' '}
                <Text>as {current.account_name}</Text>
              </>
            ) : (
              <Badge appearance="outline" color="informative">
                not connected
              </Badge>
            )}
          </Body1>
          {!connected && current.lost_reason && <Text size={200}>The connection was lost: {current.lost_reason}</Text>}
          <div style={{ display: 'flex', gap: 8 }}>
            {connected ? (
              <Button appearance="secondary" onClick={() => void onDisconnect()} disabled={busy}>
                Disconnect
              </Button>
            ) : current.auth === 'api-key' && current.key_schema ? (
              <div style={{ flex: 1, maxWidth: 420 }}>
                <SchemaForm<Record<string, unknown>>
                  key={current.provider}
                  schema={current.key_schema}
                  uiSchema={current.key_ui_schema}
                  validator={keyFormValidator}
                  idPrefix={`key-${current.provider}`}
                  submitText="Connect"
                  busy={busy}
                  onSubmit={(values) => void onKey(values)}
                />
              </div>
            ) : (
              <Button appearance="primary" onClick={onConnect}>
                Connect
              </Button>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
