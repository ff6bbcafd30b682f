import { useCallback, useState } from 'react';
import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { PlugConnected20Regular } from '@fluentui/react-icons/svg/plug-connected';
import { RovingTab, RovingTabList, useRegistry } from '../../src/app';
import { connectorNeedsAuthorisation, authorisationSourceFrom, type Connector, type ProviderConnection } from '../../src/core';
import { TEXT, TILE_TEXT, tileStatus } from './setup-rules';
import { ConnectionWidgetFrame, type WidgetConnectionState } from './ConnectionWidgetFrame';
import { ConnectorIcon } from './ConnectorIcon';

const useStyles = makeStyles({
  root: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '12px', minWidth: 0 },
  tabs: { overflowX: 'auto', maxWidth: '100%' },
  pane: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '8px', padding: '8px 4px', minWidth: 0 },
  head: { display: 'flex', gap: '10px', alignItems: 'center' },
  muted: { color: tokens.colorNeutralForeground2 },
  surface: { maxWidth: 'min(900px, calc(100vw - 32px))', width: '100%' },
});

/** Unique connectors of a combination, sorted by name (one tab each, spec section 2). */
function byName(connectors: readonly Connector[]): Connector[] {
  const seen = new Set<string>();
  return [...connectors].filter((c) => (seen.has(c.provider) ? false : (seen.add(c.provider), true))).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The connection widgets: one tab per connector sorted by name. A connector that needs an
 * account (Google Drive, Google Sheets, Xero) shows its status and the connection widget
 * (Connect / Disconnect, opened with the workatoToken); the others need no account.
 */
export function ConnectionsPane({
  connectors,
  connections,
  idPrefix,
  onChanged,
}: {
  connectors: readonly Connector[];
  connections: ProviderConnection[] | undefined;
  idPrefix: string;
  /** the widget read the connections again (e.g. after a Connect) */
  onChanged?: (connections: WidgetConnectionState[]) => void;
}) {
  const s = useStyles();
  const registry = useRegistry();
  const source = authorisationSourceFrom(registry);
  const list = byName(connectors);
  const [selected, setSelected] = useState(list[0]?.provider);
  // what the widget reported last: newer than the screen's own poll of the connections
  const [reported, setReported] = useState<Record<string, 'success' | null>>({});
  const heard = useCallback(
    (states: WidgetConnectionState[]) => {
      setReported((r) => ({ ...r, ...Object.fromEntries(states.map((c) => [c.provider, c.authorization_status])) }));
      onChanged?.(states);
    },
    [onChanged],
  );
  const current = list.find((c) => c.provider === selected) ?? list[0];
  if (!current) return <Body1>This combination uses no connectors.</Body1>;
  const needs = connectorNeedsAuthorisation(source, current);
  const known =
    current.provider in reported ? [{ id: 0, name: current.name, provider: current.provider, authorization_status: reported[current.provider] }] : connections;
  const status = tileStatus({ provider: current.provider, needsAuthorisation: needs, connections: known, installed: undefined });
  return (
    <div className={s.root}>
      <RovingTabList className={s.tabs} selectedValue={current.provider} onTabSelect={(_, d) => setSelected(String(d.value))} aria-label="Connectors">
        {list.map((c) => (
          <RovingTab key={c.provider} value={c.provider} id={`${idPrefix}-tab-${c.provider}`}>
            {c.name}
          </RovingTab>
        ))}
      </RovingTabList>
      <div className={s.pane} role="tabpanel" aria-labelledby={`${idPrefix}-tab-${current.provider}`}>
        <div className={s.head}>
          <ConnectorIcon provider={current.provider} />
          <Body1>
            <strong>{current.name}</strong>: {TILE_TEXT[status]}
          </Body1>
        </div>
        {needs ? (
          <>
            <Body1 className={s.muted}>
              {status === 'connected'
                ? `Your ${current.name} account is connected.`
                : `Connect your ${current.name} account: the sign-in opens in a new window.`}
            </Body1>
            <ConnectionWidgetFrame key={current.provider} providers={[current.provider]} title={`${current.name} connection`} onChanged={heard} />
          </>
        ) : (
          <Body1 className={s.muted}>{`${current.name} needs no account: it works as soon as the workflow runs.`}</Body1>
        )}
      </div>
    </div>
  );
}

/** 'Setup Connections for Workflows': a large modal with a static backdrop; Done closes it. */
export function SetupConnectionsModal(props: { connectors: readonly Connector[]; connections: ProviderConnection[] | undefined; onChanged?: () => void }) {
  const s = useStyles();
  return (
    <Dialog modalType="alert">
      <DialogTrigger disableButtonEnhancement>
        <Button icon={<PlugConnected20Regular />}>{TEXT.modalTitle}</Button>
      </DialogTrigger>
      <DialogSurface className={s.surface}>
        <DialogBody>
          <DialogTitle>{TEXT.modalTitle}</DialogTitle>
          <DialogContent>
            <ConnectionsPane {...props} idPrefix="modal" />
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance="primary">Done</Button>
            </DialogTrigger>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
