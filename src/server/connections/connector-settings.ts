import { ConfigError, urlVar, type Env, type ServerConfig } from '../config';
import type { ConnectorDefinition, ResolvedOAuth } from './kinds';

/**
 * SANDBOX_PROVIDERS: true (every connector with a sandbox uses it), false (none does), unset (a
 * connector uses its sandbox outside production while its client id is not set).
 */
export function sandboxFlag(env: Readonly<Env>): boolean | undefined {
  const flag = (env.SANDBOX_PROVIDERS ?? '').trim().toLowerCase();
  if (flag === '') return undefined;
  if (flag !== 'true' && flag !== 'false') throw new ConfigError('SANDBOX_PROVIDERS', `must be true or false, got "${env.SANDBOX_PROVIDERS}"`);
  return flag === 'true';
}

/** A declaration the server cannot use fails start-up, naming the connector. */
export function checkDefinition(d: ConnectorDefinition): void {
  if (d.auth.kind === 'oauth2') {
    const o = d.oauth;
    if (!o?.env?.clientId || !o.env.clientSecret || !o.endpoints?.authorization || !o.endpoints.token || typeof o.account !== 'function') {
      throw new Error(
        `Connector "${d.id}" is declared with OAuth 2 but its server definition lacks oauth.env (clientId, clientSecret), oauth.endpoints (authorization, token) or oauth.account.`,
      );
    }
  }
}

/** An OAuth connector's client and endpoints from its variables (defaults where unset); a bad value is a ConfigError naming it. */
export function readOAuthEnv(d: ConnectorDefinition, env: Readonly<Env>): { clientId?: string; clientSecret?: string; endpoints: Record<string, string> } {
  const o = d.oauth!;
  const clientId = env[o.env.clientId] || undefined;
  const clientSecret = env[o.env.clientSecret] || undefined;
  if (!!clientId !== !!clientSecret) throw new ConfigError(o.env.clientId, `and ${o.env.clientSecret} must be set together`);
  const endpoints: Record<string, string> = {};
  for (const [name, setting] of Object.entries(o.endpoints)) {
    if (setting) endpoints[name] = urlVar(env, setting.env, ['http', 'https']) ?? setting.default;
  }
  return { clientId, clientSecret, endpoints };
}

/**
 * Checks every declared connector and its variables before anything starts (the Connections
 * service is built while routes are registered): a mistake stops the start naming the variable.
 */
export function checkConnectorSettings(definitions: ConnectorDefinition[], env: Readonly<Env>): void {
  sandboxFlag(env);
  for (const d of definitions) {
    checkDefinition(d);
    if (d.auth.kind === 'oauth2') readOAuthEnv(d, env);
  }
}

/**
 * Where an OAuth connector is reached on this server: its sandbox (started here) when the
 * switches say so, the real provider (endpoints from their variables or defaults) when its client
 * id and secret are set, or nowhere (undefined: the connector is not offered). Variables are
 * checked even when unused, so a typo fails start-up.
 */
export async function resolveOAuth(
  d: ConnectorDefinition,
  ctx: { config: ServerConfig; redirectUri: string; sandbox: boolean | undefined },
): Promise<ResolvedOAuth | undefined> {
  const { clientId, clientSecret, endpoints } = readOAuthEnv(d, ctx.config.env);
  const useSandbox = !!d.sandbox && (ctx.sandbox === true || (ctx.sandbox === undefined && !ctx.config.production && !clientId));
  if (useSandbox) {
    const started = await d.sandbox!.start({ redirectUri: ctx.redirectUri, config: ctx.config });
    return { endpoints: { ...endpoints, ...started.endpoints }, clientId: started.clientId, clientSecret: started.clientSecret, sandbox: true };
  }
  if (clientId && clientSecret) return { endpoints, clientId, clientSecret, sandbox: false };
  return undefined;
}
