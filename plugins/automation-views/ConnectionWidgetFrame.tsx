import { useEffect, useState } from 'react';
import { MessageBar, MessageBarBody, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { useApi, useSession, userMessage } from '../../src/app';

/** The message the embedded connection widget posts after reading the connections (plugins/connectors). */
export const CONNECTIONS_CHANGED = 'flowmatic:connections';

/** The widget token lives 10 minutes; a fresh one is fetched (and the frame reloaded) a little before. */
const TOKEN_REFRESH_MS = 9 * 60_000;

const useStyles = makeStyles({
  frame: {
    width: '100%',
    minHeight: '190px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
  },
});

/**
 * The connection widget (/connections/widget, a page of this product) embedded for some
 * connectors, opened with a workatoToken (POST /api/platform/workatoToken). Connect opens the
 * provider's consent page in a popup from inside it; `onChanged` hears when the widget has read
 * the connections again.
 */
/** A connection's state as the embedded widget reports it. */
export interface WidgetConnectionState {
  provider: string;
  authorization_status: 'success' | null;
}

export function ConnectionWidgetFrame({
  providers,
  title,
  onChanged,
}: {
  providers: string[];
  title: string;
  onChanged?: (connections: WidgetConnectionState[]) => void;
}) {
  const s = useStyles();
  const api = useApi();
  const session = useSession();
  const workatoId = session.workatoId;
  const [token, setToken] = useState<string>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (workatoId === null) return;
    let live = true;
    const fetchToken = () =>
      api.post<{ access_token?: string }>('/api/platform/workatoToken', { WK_USER_ID: workatoId }).then(
        (r) => {
          if (!live) return;
          if (r?.access_token) setToken(r.access_token);
          else setError('The connections could not be opened. Please try again.');
        },
        (e: unknown) => live && setError(userMessage(e, 'The connections could not be opened. Please try again.')),
      );
    void fetchToken();
    const timer = window.setInterval(() => void fetchToken(), TOKEN_REFRESH_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [api, workatoId]);

  useEffect(() => {
    if (!onChanged) return;
    const listen = (e: MessageEvent<{ type?: string; connections?: unknown }>) => {
      if (e.origin !== window.location.origin || e.data?.type !== CONNECTIONS_CHANGED || !Array.isArray(e.data.connections)) return;
      onChanged(
        e.data.connections
          .filter((c): c is WidgetConnectionState => !!c && typeof c.provider === 'string')
          .map((c) => ({ provider: c.provider, authorization_status: c.authorization_status === 'success' ? 'success' : null })),
      );
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [onChanged]);

  if (workatoId === null) return null;
  if (error)
    return (
      <MessageBar intent="error">
        <MessageBarBody>{error}</MessageBarBody>
      </MessageBar>
    );
  if (!token) return <Spinner size="tiny" label="Opening the connection widget..." />;
  const src = `/connections/widget?${new URLSearchParams({ token, provider: providers.join(',') })}`;
  return <iframe className={s.frame} title={title} src={src} />;
}
