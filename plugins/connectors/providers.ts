import type { ConnectionService, ConnectorDefinition, ConnectorSandbox, OAuthConnectorSettings, SandboxEndpoints, ServerConfig } from '../../src/server';
import { intVar } from '../../src/server';
import { DECLARED_CONNECTORS, googleDrive, googleSheets, xero } from './declarations';
import { SandboxProviders, sandboxPortDefault } from './sandbox/sandbox-server';

export { GOOGLE_DRIVE_SCOPES, GOOGLE_SHEETS_SCOPES, XERO_SCOPES } from './declarations';

/** Where each family's endpoints are on this server (resolved by the Connections module from the declarations below). */
export interface Endpoints {
  google?: {
    authorizationUrl: string;
    tokenUrl: string;
    revocationUrl: string;
    userInfoUrl: string;
    driveUrl: string;
    sheetsUrl: string;
    clientId: string;
    clientSecret: string;
    sandbox: boolean;
  };
  xero?: {
    authorizationUrl: string;
    tokenUrl: string;
    revocationUrl: string;
    connectionsUrl: string;
    apiUrl: string;
    clientId: string;
    clientSecret: string;
    sandbox: boolean;
  };
}

/** The endpoints the Connections service resolved for Google (Drive's) and Xero: undefined for a family not offered here. */
export function endpointsOf(connections: Pick<ConnectionService, 'endpoints'>): Endpoints {
  const out: Endpoints = {};
  const g = connections.endpoints(googleDrive.id);
  if (g) {
    const e = g.endpoints;
    out.google = {
      authorizationUrl: e.authorization,
      tokenUrl: e.token,
      revocationUrl: e.revocation,
      userInfoUrl: e.userInfo,
      driveUrl: e.drive,
      sheetsUrl: e.sheets,
      clientId: g.clientId,
      clientSecret: g.clientSecret,
      sandbox: g.sandbox,
    };
  }
  const x = connections.endpoints(xero.id);
  if (x) {
    const e = x.endpoints;
    out.xero = {
      authorizationUrl: e.authorization,
      tokenUrl: e.token,
      revocationUrl: e.revocation,
      connectionsUrl: e.connections,
      apiUrl: e.api,
      clientId: x.clientId,
      clientSecret: x.clientSecret,
      sandbox: x.sandbox,
    };
  }
  return out;
}

async function json(url: string, accessToken: string, what: string): Promise<unknown> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' }, signal: AbortSignal.timeout(15_000) });
  if (!res.ok) throw new Error(`${what} answered HTTP ${res.status}.`);
  return res.json();
}

/** Google's OAuth app (GOOGLE_CLIENT_ID / _SECRET) and endpoints, shared by Drive and Sheets (one grant). */
const GOOGLE: OAuthConnectorSettings = {
  env: { clientId: 'GOOGLE_CLIENT_ID', clientSecret: 'GOOGLE_CLIENT_SECRET' },
  endpoints: {
    authorization: { env: 'GOOGLE_AUTH_URL', default: 'https://accounts.google.com/o/oauth2/v2/auth' },
    token: { env: 'GOOGLE_TOKEN_URL', default: 'https://oauth2.googleapis.com/token' },
    revocation: { env: 'GOOGLE_REVOKE_URL', default: 'https://oauth2.googleapis.com/revoke' },
    userInfo: { env: 'GOOGLE_USERINFO_URL', default: 'https://www.googleapis.com/oauth2/v2/userinfo' },
    drive: { env: 'GOOGLE_DRIVE_API_URL', default: 'https://www.googleapis.com' },
    sheets: { env: 'GOOGLE_SHEETS_API_URL', default: 'https://sheets.googleapis.com' },
  },
  clientAuth: 'post',
  // offline: a refresh token; consent: Google sends it again on a second Connect
  authorizationParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  async account(token, e) {
    const info = (await json(e.userInfo, token, 'Google userinfo')) as { email?: string; id?: string };
    if (!info.email) throw new Error('Google did not say which account this is.');
    return { id: info.id ?? info.email, name: info.email };
  },
};

/** Xero's OAuth app (XERO_CLIENT_ID / _SECRET): rotating refresh tokens, the organisation named from /connections. */
const XERO: OAuthConnectorSettings = {
  env: { clientId: 'XERO_CLIENT_ID', clientSecret: 'XERO_CLIENT_SECRET' },
  endpoints: {
    authorization: { env: 'XERO_AUTH_URL', default: 'https://login.xero.com/identity/connect/authorize' },
    token: { env: 'XERO_TOKEN_URL', default: 'https://identity.xero.com/connect/token' },
    revocation: { env: 'XERO_REVOKE_URL', default: 'https://identity.xero.com/connect/revocation' },
    connections: { env: 'XERO_CONNECTIONS_URL', default: 'https://api.xero.com/connections' },
    api: { env: 'XERO_API_URL', default: 'https://api.xero.com' },
  },
  clientAuth: 'basic',
  async account(token, e) {
    const tenants = (await json(e.connections, token, 'Xero connections')) as Array<{ tenantId?: string; tenantName?: string; tenantType?: string }>;
    const org = Array.isArray(tenants) ? tenants.find((t) => t.tenantType === 'ORGANISATION' && t.tenantId) : undefined;
    if (!org) throw new Error('No Xero organisation was authorised.');
    return { id: org.tenantId, name: org.tenantName ?? 'Xero organisation' };
  },
};

/**
 * The one sandbox server (Google and Xero look-alikes on SANDBOX_HOST:SANDBOX_PORT, 127.0.0.1:3030 by default, data under
 * DATA_DIR/sandbox), started on the first connector that uses it; each family answers its own
 * endpoints and client. It accepts only this server's Connect callback as a redirect.
 */
export class SharedSandbox {
  instance: SandboxProviders | undefined;
  private starting: Promise<SandboxProviders> | undefined;

  constructor(private readonly opts: { accessTtlSeconds?: number }) {}

  private run(ctx: { redirectUri: string; config: ServerConfig }): Promise<SandboxProviders> {
    return (this.starting ??= (async () => {
      const env = ctx.config.env;
      const sandbox = new SandboxProviders({
        dataDir: ctx.config.dataDir,
        secretKey: ctx.config.secretKey,
        host: env.SANDBOX_HOST || '127.0.0.1',
        // a test harness passes its own env object: a server built inside a Jest worker never takes the fixed port
        port: intVar(env, 'SANDBOX_PORT', sandboxPortDefault({ JEST_WORKER_ID: process.env.JEST_WORKER_ID, ...env }), 0, 65535),
        accessTtlSeconds: this.opts.accessTtlSeconds,
      });
      await sandbox.start();
      sandbox.oauth.registerRedirectUri(ctx.redirectUri);
      this.instance = sandbox;
      return sandbox;
    })().catch((e) => {
      this.starting = undefined;
      throw e;
    }));
  }

  /** The sandbox as one family's connectors see it. */
  family(name: 'google' | 'xero'): ConnectorSandbox {
    return {
      start: async (ctx): Promise<SandboxEndpoints> => {
        const s = await this.run(ctx);
        const b = s.url;
        const endpoints: Record<string, string> =
          name === 'google'
            ? {
                authorization: `${b}/google/o/oauth2/v2/auth`,
                token: `${b}/google/token`,
                revocation: `${b}/google/revoke`,
                userInfo: `${b}/google/oauth2/v2/userinfo`,
                drive: `${b}/google`,
                sheets: `${b}/google`,
              }
            : {
                authorization: `${b}/xero/identity/connect/authorize`,
                token: `${b}/xero/identity/connect/token`,
                revocation: `${b}/xero/identity/connect/revocation`,
                connections: `${b}/xero/connections`,
                api: `${b}/xero`,
              };
        return { endpoints, ...s.clients[name] };
      },
      stop: () => this.stop(),
    };
  }

  async stop(): Promise<void> {
    const s = this.instance;
    this.instance = undefined;
    this.starting = undefined;
    await s?.stop();
  }
}

/**
 * The server definitions of this plugin's connectors: Google Drive and Google Sheets (one
 * Google OAuth app), Xero, and the three that need no account.
 */
export function connectorDefinitions(sandbox: SharedSandbox): ConnectorDefinition[] {
  const oauth: Record<string, { oauth: OAuthConnectorSettings; sandbox: ConnectorSandbox }> = {
    [googleDrive.id]: { oauth: GOOGLE, sandbox: sandbox.family('google') },
    [googleSheets.id]: { oauth: GOOGLE, sandbox: sandbox.family('google') },
    [xero.id]: { oauth: XERO, sandbox: sandbox.family('xero') },
  };
  return DECLARED_CONNECTORS.map((d) => ({ ...d, ...oauth[d.id] }));
}
