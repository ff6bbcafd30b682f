import { checkConnectorSettings, readOAuthEnv } from '../../../src/server/connections/connector-settings';
import { connectorDefinitions, SharedSandbox } from '../../../plugins/connectors/providers';

/** The Google and Xero settings, now declared by the connectors plugin: the same variables, defaults and start-up errors as before. */
describe('the connectors plugin declares the Google and Xero settings', () => {
  const defs = connectorDefinitions(new SharedSandbox({}));
  const byId = (id: string) => defs.find((d) => d.id === id)!;

  it('with nothing set: the public endpoints, no client', () => {
    expect(readOAuthEnv(byId('google_drive'), {})).toEqual({
      clientId: undefined,
      clientSecret: undefined,
      endpoints: {
        authorization: 'https://accounts.google.com/o/oauth2/v2/auth',
        token: 'https://oauth2.googleapis.com/token',
        revocation: 'https://oauth2.googleapis.com/revoke',
        userInfo: 'https://www.googleapis.com/oauth2/v2/userinfo',
        drive: 'https://www.googleapis.com',
        sheets: 'https://sheets.googleapis.com',
      },
    });
    expect(readOAuthEnv(byId('xero'), {})).toEqual({
      clientId: undefined,
      clientSecret: undefined,
      endpoints: {
        authorization: 'https://login.xero.com/identity/connect/authorize',
        token: 'https://identity.xero.com/connect/token',
        revocation: 'https://identity.xero.com/connect/revocation',
        connections: 'https://api.xero.com/connections',
        api: 'https://api.xero.com',
      },
    });
  });

  it('reads each variable; Drive and Sheets share the Google app', () => {
    const env = {
      GOOGLE_CLIENT_ID: 'gid',
      GOOGLE_CLIENT_SECRET: 'gsecret',
      GOOGLE_AUTH_URL: 'http://g.local/auth',
      GOOGLE_TOKEN_URL: 'http://g.local/token',
      GOOGLE_REVOKE_URL: 'http://g.local/revoke',
      GOOGLE_USERINFO_URL: 'http://g.local/me',
      GOOGLE_DRIVE_API_URL: 'http://g.local/drive',
      GOOGLE_SHEETS_API_URL: 'http://g.local/sheets',
      XERO_CLIENT_ID: 'xid',
      XERO_CLIENT_SECRET: 'xsecret',
      XERO_AUTH_URL: 'http://x.local/auth',
      XERO_TOKEN_URL: 'http://x.local/token',
      XERO_REVOKE_URL: 'http://x.local/revoke',
      XERO_CONNECTIONS_URL: 'http://x.local/connections',
      XERO_API_URL: 'http://x.local/api',
    };
    const google = {
      clientId: 'gid',
      clientSecret: 'gsecret',
      endpoints: {
        authorization: 'http://g.local/auth',
        token: 'http://g.local/token',
        revocation: 'http://g.local/revoke',
        userInfo: 'http://g.local/me',
        drive: 'http://g.local/drive',
        sheets: 'http://g.local/sheets',
      },
    };
    expect(readOAuthEnv(byId('google_drive'), env)).toEqual(google);
    expect(readOAuthEnv(byId('google_sheets'), env)).toEqual(google);
    expect(readOAuthEnv(byId('xero'), env)).toEqual({
      clientId: 'xid',
      clientSecret: 'xsecret',
      endpoints: {
        authorization: 'http://x.local/auth',
        token: 'http://x.local/token',
        revocation: 'http://x.local/revoke',
        connections: 'http://x.local/connections',
        api: 'http://x.local/api',
      },
    });
    expect(byId('google_drive').auth).toEqual({
      kind: 'oauth2',
      scopes: [
        'https://www.googleapis.com/auth/drive.readonly',
        'https://www.googleapis.com/auth/drive.file',
        'https://www.googleapis.com/auth/userinfo.email',
      ],
    });
    expect([byId('google_sheets').oauth!.clientAuth, byId('xero').oauth!.clientAuth]).toEqual(['post', 'basic']);
  });

  it('a bad value stops the start with the sentence config.ts used to say', () => {
    expect(() => checkConnectorSettings(defs, { GOOGLE_CLIENT_ID: 'gid' })).toThrow(
      'Invalid configuration: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together',
    );
    expect(() => checkConnectorSettings(defs, { XERO_CLIENT_SECRET: 'x' })).toThrow(
      'Invalid configuration: XERO_CLIENT_ID and XERO_CLIENT_SECRET must be set together',
    );
    expect(() => checkConnectorSettings(defs, { GOOGLE_TOKEN_URL: 'ftp://g.local/token' })).toThrow(
      'Invalid configuration: GOOGLE_TOKEN_URL must use one of http, https, got "ftp:"',
    );
    expect(() => checkConnectorSettings(defs, { XERO_API_URL: 'not a url' })).toThrow(
      'Invalid configuration: XERO_API_URL must be a URL (http, https), got "not a url"',
    );
    expect(() => checkConnectorSettings(defs, { SANDBOX_PROVIDERS: 'maybe' })).toThrow(
      'Invalid configuration: SANDBOX_PROVIDERS must be true or false, got "maybe"',
    );
    expect(() => checkConnectorSettings(defs, { SANDBOX_PROVIDERS: 'TRUE', GOOGLE_CLIENT_ID: 'a', GOOGLE_CLIENT_SECRET: 'b' })).not.toThrow();
  });
});
