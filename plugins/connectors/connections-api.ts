/** A connection as GET /api/connections answers it. */
export interface WidgetConnection {
  id: number;
  provider: string;
  name: string;
  authorization_status: 'success' | null;
  account_name: string | null;
  lost_reason: string | null;
  sandbox: boolean;
  /** an API-key connector: the form to fill in instead of a sign-in (OAuth connectors carry neither) */
  auth?: 'api-key';
  key_schema?: Record<string, unknown>;
  key_ui_schema?: Record<string, unknown>;
}

/** The channel the Connect popup's last page tells the widget on (the popup loses window.opener to COOP). */
export const CONNECT_CHANNEL = 'flowmatic-connections';

/** The message an embedded widget posts to its parent page after reading the connections. */
export const CONNECTIONS_CHANGED = 'flowmatic:connections';

async function call<T>(url: string, token: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, { ...init, headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
  const body = (await res.json().catch(() => ({}))) as { message?: string };
  if (!res.ok) throw new Error(body.message ?? `The server answered ${res.status}.`);
  return body as T;
}

/** The caller's connections (one per connectable provider), sorted by name. */
export async function fetchConnections(token: string): Promise<WidgetConnection[]> {
  const { result } = await call<{ result: WidgetConnection[] }>('/api/connections', token);
  return [...result].sort((a, b) => a.name.localeCompare(b.name));
}

/** Disconnects one connection (revoked at the provider). */
export async function disconnect(token: string, id: number): Promise<void> {
  await call(`/api/connections/${id}/disconnect`, token, { method: 'POST' });
}

/** Connects an API-key connector with its form's values (checked again on the server). */
export async function connectKey(token: string, provider: string, values: Record<string, unknown>): Promise<void> {
  await call(`/api/connections/key/${encodeURIComponent(provider)}`, token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(values),
  });
}

/** The address the Connect popup opens (the server sets its cookie and sends it to the consent page). */
export function connectUrl(token: string, provider: string): string {
  return `/api/connections/connect/${encodeURIComponent(provider)}?token=${encodeURIComponent(token)}`;
}

/** What POST /api/connections/complete answers when the Connect is finished for the signed-in user. */
export interface CompletedConnect {
  provider: string;
  name: string;
  account: string;
}

/**
 * Finishes the Connect that came back to this browser, as the signed-in user (the done page; the
 * session's bearer token and the HttpOnly Connect cookie both go with it).
 */
export function completeConnect(api: { post<T>(path: string, body?: unknown): Promise<T> }): Promise<CompletedConnect> {
  return api.post<CompletedConnect>('/api/connections/complete', {});
}
