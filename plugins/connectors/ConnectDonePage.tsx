import { useEffect, useState } from 'react';
import { Body1, Title3 } from '@fluentui/react-components';
import { CONNECT_CHANNEL } from './connections-api';

/**
 * /connections/done: where the Connect popup ends. It tells the widget (BroadcastChannel: the
 * popup has no opener once it has been to the provider) and closes itself.
 */
export default function ConnectDonePage() {
  const [query] = useState(() => new URLSearchParams(window.location.search));
  const ok = query.get('result') === 'connected';
  useEffect(() => {
    const message = { provider: query.get('provider'), result: query.get('result'), message: query.get('message'), account: query.get('account') };
    if (typeof BroadcastChannel !== 'undefined') {
      const channel = new BroadcastChannel(CONNECT_CHANNEL);
      channel.postMessage(message);
      channel.close();
    }
    if (ok) window.setTimeout(() => window.close(), 600);
  }, [ok, query]);
  return (
    <main style={{ padding: 32, display: 'grid', gap: 12 }}>
      <Title3 as="h1">{ok ? 'Connected' : 'Not connected'}</Title3>
      <Body1>{ok ? `Connected as ${query.get('account') ?? ''}. You can close this window.` : query.get('message') ?? 'The connection could not be completed.'}</Body1>
    </main>
  );
}
