import { useEffect, useState } from 'react';
import { Body1, Spinner, Title3 } from '@fluentui/react-components';
import { ApiError, useApi, useSession } from '../../src/app';
import { CONNECT_CHANNEL, completeConnect } from './connections-api';

/** What the page says for each outcome the server's callback names (nothing else from the address is shown). */
export const CONNECT_OUTCOMES: Readonly<Record<string, string>> = {
  not_started: 'This sign-in does not match a Connect started in this browser (it may have expired): press Connect again.',
  state_mismatch: 'The sign-in came back with a state that does not match your Connect, so it was refused: press Connect again.',
  other_account:
    'This Connect was started by another Flowmatic account, so nothing was connected. Sign in as the account that pressed Connect, then press Connect again.',
  signed_out:
    'Sign in to Flowmatic in this browser, then press Connect again: a Connect finishes only for the signed-in account that started it, so nothing was connected.',
  provider: 'The connection could not be completed. Please try again.',
};

type Outcome = { kind: 'working' } | { kind: 'connected'; provider: string; account: string } | { kind: 'error'; provider?: string; message: string };

const known = (reason: string | null) => CONNECT_OUTCOMES[reason ?? ''] ?? CONNECT_OUTCOMES.provider;

/**
 * /connections/done: where the Connect popup ends. The server parked the provider's answer; this
 * page (signed in, in the browser that pressed Connect) asks the server to finish it for the
 * signed-in user, who must be the one who started it. It shows only known outcomes and the
 * server's reply, tells the widget (BroadcastChannel: the popup has no opener once it has been
 * to the provider) and closes itself after a success.
 */
export default function ConnectDonePage() {
  const api = useApi();
  const session = useSession();
  const [outcome, setOutcome] = useState<Outcome>(() => {
    const query = new URLSearchParams(window.location.search);
    if (query.get('result') !== 'confirm') return { kind: 'error', message: known(query.get('reason')) };
    if (!session.isAuth) return { kind: 'error', message: CONNECT_OUTCOMES.signed_out };
    return { kind: 'working' };
  });

  useEffect(() => {
    if (outcome.kind !== 'working') return;
    let live = true;
    completeConnect(api).then(
      (r) => live && setOutcome({ kind: 'connected', provider: r.provider, account: r.account }),
      (e: unknown) => live && setOutcome({ kind: 'error', message: e instanceof ApiError && e.message ? e.message : CONNECT_OUTCOMES.provider }),
    );
    return () => {
      live = false;
    };
  }, [api, outcome.kind]);

  useEffect(() => {
    if (outcome.kind === 'working') return;
    const message =
      outcome.kind === 'connected'
        ? { provider: outcome.provider, result: 'connected', account: outcome.account }
        : { provider: null, result: 'error', message: outcome.message };
    if (typeof BroadcastChannel !== 'undefined') {
      const channel = new BroadcastChannel(CONNECT_CHANNEL);
      channel.postMessage(message);
      channel.close();
    }
    if (outcome.kind === 'connected') window.setTimeout(() => window.close(), 600);
  }, [outcome]);

  if (outcome.kind === 'working') return <Spinner label="Finishing the connection…" style={{ padding: 32 }} />;
  const ok = outcome.kind === 'connected';
  return (
    <main style={{ padding: 32, display: 'grid', gap: 12 }}>
      <Title3 as="h1">{ok ? 'Connected' : 'Not connected'}</Title3>
      <Body1>{ok ? `Connected as ${outcome.account}. You can close this window.` : outcome.message}</Body1>
    </main>
  );
}
