import type { ConnectionProviderDefinition, OAuthProviderSettings, ServerConfig } from '../../src/server';
import type { SandboxProviders } from './sandbox/sandbox-server';

export const GOOGLE_DRIVE_SCOPES = ['https://www.googleapis.com/auth/drive.readonly', 'https://www.googleapis.com/auth/drive.file', 'https://www.googleapis.com/auth/userinfo.email'];
export const GOOGLE_SHEETS_SCOPES = ['https://www.googleapis.com/auth/spreadsheets', 'https://www.googleapis.com/auth/drive.file', 'https://www.googleapis.com/auth/userinfo.email'];
export const XERO_SCOPES = ['offline_access', 'accounting.transactions', 'accounting.contacts', 'accounting.settings.read'];

/** Where each family's endpoints are: the real ones from configuration, or the running sandbox. */
export interface Endpoints {
  google?: { authorizationUrl: string; tokenUrl: string; revocationUrl: string; userInfoUrl: string; driveUrl: string; sheetsUrl: string; clientId: string; clientSecret: string; sandbox: boolean };
  xero?: { authorizationUrl: string; tokenUrl: string; revocationUrl: string; connectionsUrl: string; apiUrl: string; clientId: string; clientSecret: string; sandbox: boolean };
}

/** The endpoints of this server: a family uses the sandbox when configured so, the real provider when it has a client id, none otherwise. */
export function endpointsOf(config: ServerConfig, sandbox: SandboxProviders | undefined): Endpoints {
  const out: Endpoints = {};
  if (config.sandbox.google && sandbox) {
    const b = sandbox.url;
    out.google = { authorizationUrl: `${b}/google/o/oauth2/v2/auth`, tokenUrl: `${b}/google/token`, revocationUrl: `${b}/google/revoke`, userInfoUrl: `${b}/google/oauth2/v2/userinfo`, driveUrl: `${b}/google`, sheetsUrl: `${b}/google`, ...sandbox.clients.google, sandbox: true };
  } else if (config.google.clientId && config.google.clientSecret) {
    const g = config.google;
    out.google = { authorizationUrl: g.authorizationUrl, tokenUrl: g.tokenUrl, revocationUrl: g.revocationUrl, userInfoUrl: g.userInfoUrl, driveUrl: g.apiUrl, sheetsUrl: g.sheetsApiUrl, clientId: config.google.clientId, clientSecret: config.google.clientSecret, sandbox: false };
  }
  if (config.sandbox.xero && sandbox) {
    const b = sandbox.url;
    out.xero = { authorizationUrl: `${b}/xero/identity/connect/authorize`, tokenUrl: `${b}/xero/identity/connect/token`, revocationUrl: `${b}/xero/identity/connect/revocation`, connectionsUrl: `${b}/xero/connections`, apiUrl: `${b}/xero`, ...sandbox.clients.xero, sandbox: true };
  } else if (config.xero.clientId && config.xero.clientSecret) {
    const x = config.xero;
    out.xero = { authorizationUrl: x.authorizationUrl, tokenUrl: x.tokenUrl, revocationUrl: x.revocationUrl, connectionsUrl: x.connectionsUrl, apiUrl: x.apiUrl, clientId: config.xero.clientId, clientSecret: config.xero.clientSecret, sandbox: false };
  }
  return out;
}

async function json(url: string, accessToken: string, what: string): Promise<unknown> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' }, signal: AbortSignal.timeout(15_000) });
  if (!res.ok) throw new Error(`${what} answered HTTP ${res.status}.`);
  return res.json();
}

function googleSettings(e: NonNullable<Endpoints['google']>, scopes: string[]): OAuthProviderSettings {
  return {
    authorizationUrl: e.authorizationUrl,
    tokenUrl: e.tokenUrl,
    revocationUrl: e.revocationUrl,
    clientId: e.clientId,
    clientSecret: e.clientSecret,
    clientAuth: 'post',
    scopes,
    // offline: a refresh token; consent: Google sends it again on a second Connect
    authorizationParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
    sandbox: e.sandbox,
    async account(token) {
      const info = (await json(e.userInfoUrl, token, 'Google userinfo')) as { email?: string; id?: string };
      if (!info.email) throw new Error('Google did not say which account this is.');
      return { id: info.id ?? info.email, name: info.email };
    },
  };
}

/**
 * The three connectable providers. `settings()` is read at each use, so the sandbox's address
 * (known once it listens) and the configuration decide what the widget offers.
 */
export function connectionProviders(endpoints: () => Endpoints): ConnectionProviderDefinition[] {
  return [
    { provider: 'google_drive', name: 'Google Drive', settings: () => (endpoints().google ? googleSettings(endpoints().google!, GOOGLE_DRIVE_SCOPES) : undefined) },
    { provider: 'google_sheets', name: 'Google Sheets', settings: () => (endpoints().google ? googleSettings(endpoints().google!, GOOGLE_SHEETS_SCOPES) : undefined) },
    {
      provider: 'xero',
      name: 'Xero',
      settings: () => {
        const e = endpoints().xero;
        if (!e) return undefined;
        return {
          authorizationUrl: e.authorizationUrl,
          tokenUrl: e.tokenUrl,
          revocationUrl: e.revocationUrl,
          clientId: e.clientId,
          clientSecret: e.clientSecret,
          clientAuth: 'basic',
          scopes: XERO_SCOPES,
          sandbox: e.sandbox,
          async account(token) {
            const tenants = (await json(e.connectionsUrl, token, 'Xero connections')) as Array<{ tenantId?: string; tenantName?: string; tenantType?: string }>;
            const org = Array.isArray(tenants) ? tenants.find((t) => t.tenantType === 'ORGANISATION' && t.tenantId) : undefined;
            if (!org) throw new Error('No Xero organisation was authorised.');
            return { id: org.tenantId, name: org.tenantName ?? 'Xero organisation' };
          },
        };
      },
    },
  ];
}
