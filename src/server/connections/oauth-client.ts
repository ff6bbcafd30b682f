import type * as OAuthLib from 'oauth4webapi';

type Lib = typeof OAuthLib;
let loaded: Promise<Lib> | undefined;
/**
 * oauth4webapi is ESM-only: loaded on first use, so a CommonJS runtime that cannot load it
 * (Jest without it in transformIgnorePatterns) still loads the server; only Connect needs it.
 */
function lib(): Promise<Lib> {
  return (loaded ??= import('oauth4webapi'));
}
import type { OAuthProviderSettings } from './kinds';

/** The tokens of a grant, with the access token's absolute expiry. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: Date;
  scope?: string;
}

/** A provider refused a grant or answered something that is not OAuth. `invalidGrant`: the refresh token is dead. */
export class OAuthGrantError extends Error {
  constructor(
    message: string,
    readonly invalidGrant: boolean,
  ) {
    super(message);
    this.name = 'OAuthGrantError';
  }
}

function server(s: OAuthProviderSettings): OAuthLib.AuthorizationServer {
  return {
    issuer: new URL(s.authorizationUrl).origin,
    authorization_endpoint: s.authorizationUrl,
    token_endpoint: s.tokenUrl,
    revocation_endpoint: s.revocationUrl,
  };
}

function clientAuth(oauth: Lib, s: OAuthProviderSettings): OAuthLib.ClientAuth {
  return s.clientAuth === 'basic' ? oauth.ClientSecretBasic(s.clientSecret) : oauth.ClientSecretPost(s.clientSecret);
}

function httpOptions(oauth: Lib, s: OAuthProviderSettings): OAuthLib.TokenEndpointRequestOptions {
  // a sandbox provider listens on loopback over plain http; a real one must be https
  return s.sandbox ? { [oauth.allowInsecureRequests]: true, signal: AbortSignal.timeout(15_000) } : { signal: AbortSignal.timeout(15_000) };
}

function tokenSet(r: OAuthLib.TokenEndpointResponse, now: number): TokenSet {
  return {
    accessToken: r.access_token,
    refreshToken: r.refresh_token,
    expiresAt: typeof r.expires_in === 'number' ? new Date(now + r.expires_in * 1000) : undefined,
    scope: r.scope,
  };
}

/** Turns a library or provider error into one sentence, and says whether the grant is gone for good. */
function grantError(oauth: Lib, e: unknown, what: string): OAuthGrantError {
  if (e instanceof oauth.ResponseBodyError) {
    const dead = e.error === 'invalid_grant' || e.error === 'unauthorized_client' || e.error === 'invalid_client';
    return new OAuthGrantError(`The provider refused the ${what}: ${e.error}${e.error_description ? ` (${e.error_description})` : ''}.`, dead);
  }
  if (e instanceof oauth.AuthorizationResponseError) {
    return new OAuthGrantError(`The provider refused access: ${e.error}${e.error_description ? ` (${e.error_description})` : ''}.`, true);
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new OAuthGrantError(`The ${what} failed: ${msg}`, false);
}

/** A fresh PKCE pair and state for one Connect. */
export async function newAuthorizationRequest(): Promise<{ verifier: string; challenge: string; state: string }> {
  const oauth = await lib();
  const verifier = oauth.generateRandomCodeVerifier();
  return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier), state: oauth.generateRandomState() };
}

/** The consent page address for a Connect (code flow, S256 PKCE, the provider's extra parameters). */
export function authorizationUrl(s: OAuthProviderSettings, req: { challenge: string; state: string; redirectUri: string }): string {
  const url = new URL(s.authorizationUrl);
  url.searchParams.set('client_id', s.clientId);
  url.searchParams.set('redirect_uri', req.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', s.scopes.join(' '));
  url.searchParams.set('state', req.state);
  url.searchParams.set('code_challenge', req.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  for (const [k, v] of Object.entries(s.authorizationParams ?? {})) url.searchParams.set(k, v);
  return url.href;
}

/**
 * Checks the callback's state against the one kept for this browser, then redeems the code with
 * the PKCE verifier (oauth4webapi validates both replies).
 */
export async function redeemCode(
  s: OAuthProviderSettings,
  callback: URLSearchParams,
  expected: { state: string; verifier: string; redirectUri: string },
  now = Date.now(),
): Promise<TokenSet> {
  const oauth = await lib();
  const as = server(s);
  const client: OAuthLib.Client = { client_id: s.clientId };
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, callback, expected.state);
  } catch (e) {
    throw grantError(oauth, e, 'authorisation');
  }
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth(oauth, s),
      params,
      expected.redirectUri,
      expected.verifier,
      httpOptions(oauth, s),
    );
    return tokenSet(await oauth.processAuthorizationCodeResponse(as, client, response, { requireIdToken: false }), now);
  } catch (e) {
    throw grantError(oauth, e, 'authorisation code');
  }
}

/** Trades a refresh token for new tokens (a rotating provider such as Xero returns a new refresh token too). */
export async function refreshTokens(s: OAuthProviderSettings, refreshToken: string, now = Date.now()): Promise<TokenSet> {
  const oauth = await lib();
  const as = server(s);
  const client: OAuthLib.Client = { client_id: s.clientId };
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, clientAuth(oauth, s), refreshToken, httpOptions(oauth, s));
    return tokenSet(await oauth.processRefreshTokenResponse(as, client, response), now);
  } catch (e) {
    throw grantError(oauth, e, 'token refresh');
  }
}

/** Revokes a token at the provider (RFC 7009); a provider without the endpoint is not called. */
export async function revokeToken(s: OAuthProviderSettings, token: string): Promise<void> {
  if (!s.revocationUrl) return;
  const oauth = await lib();
  const as = server(s);
  const client: OAuthLib.Client = { client_id: s.clientId };
  try {
    const response = await oauth.revocationRequest(as, client, clientAuth(oauth, s), token, httpOptions(oauth, s));
    await oauth.processRevocationResponse(response);
  } catch (e) {
    throw grantError(oauth, e, 'revocation');
  }
}
