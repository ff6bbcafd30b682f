import { asId } from '../http/ids';

/**
 * The provider paths the proxy answers, and nothing else. The value of `url` must match one
 * of these exactly: relative, no dot segments, no query or fragment, no encoded characters
 * (Fastify has already decoded the query string once; a '%' left over is refused).
 */
export type ProxyTarget = { kind: 'connections'; workatoId: number } | { kind: 'recipe'; workatoId: number; recipeId: number };

const CONNECTIONS = /^api\/managed_users\/([1-9][0-9]{0,9})\/connections$/;
const RECIPE = /^api\/managed_users\/([1-9][0-9]{0,9})\/recipes\/([1-9][0-9]{0,9})$/;

export function parseProxyUrl(url: unknown): ProxyTarget | undefined {
  if (typeof url !== 'string' || url.length > 200) return undefined;
  let m = CONNECTIONS.exec(url);
  if (m) {
    const workatoId = asId(m[1]);
    return workatoId === undefined ? undefined : { kind: 'connections', workatoId };
  }
  m = RECIPE.exec(url);
  if (m) {
    const workatoId = asId(m[1]);
    const recipeId = asId(m[2]);
    return workatoId === undefined || recipeId === undefined ? undefined : { kind: 'recipe', workatoId, recipeId };
  }
  return undefined;
}

export const PROXY_ALLOWED_MESSAGE = 'The proxy only answers api/managed_users/{your id}/connections and api/managed_users/{your id}/recipes/{recipe id}.';

/** A recipe to start or stop: the body `url` of PUT /api/platform/proxy. */
export interface ProxyCommand {
  kind: 'start' | 'stop';
  workatoId: number;
  recipeId: number;
}

const COMMAND = /^api\/managed_users\/([1-9][0-9]{0,9})\/recipes\/([1-9][0-9]{0,9})\/(start|stop)$/;

/**
 * The only paths PUT /api/platform/proxy answers: api/managed_users/{id}/recipes/{id}/start or
 * /stop, matched exactly like parseProxyUrl (no dot segments, query, fragment or encoding).
 */
export function parseProxyCommand(url: unknown): ProxyCommand | undefined {
  if (typeof url !== 'string' || url.length > 200) return undefined;
  const m = COMMAND.exec(url);
  if (!m) return undefined;
  const workatoId = asId(m[1]);
  const recipeId = asId(m[2]);
  if (workatoId === undefined || recipeId === undefined) return undefined;
  return { kind: m[3] as 'start' | 'stop', workatoId, recipeId };
}

export const PROXY_COMMAND_MESSAGE = 'The proxy only accepts api/managed_users/{your id}/recipes/{recipe id}/start or /stop in a PUT.';
