/** How to reach one OAuth provider: endpoints, the app's client, scopes, and whose account it is. */
export interface OAuthProviderSettings {
  authorizationUrl: string;
  tokenUrl: string;
  /** RFC 7009 endpoint; unset: Disconnect forgets the tokens without telling the provider */
  revocationUrl?: string;
  clientId: string;
  clientSecret: string;
  /** how the client authenticates at the token endpoint (Google: post, Xero: basic) */
  clientAuth: 'basic' | 'post';
  scopes: string[];
  /** extra authorization parameters (Google: access_type=offline, prompt=consent) */
  authorizationParams?: Record<string, string>;
  /** a local sandbox provider (labelled "Sandbox" in the widget; plain http on loopback allowed) */
  sandbox: boolean;
  /** the account the new tokens reach: shown in the widget (an e-mail, a Xero organisation) */
  account(accessToken: string): Promise<{ id?: string; name: string }>;
}

/**
 * A provider users can connect (google_drive, google_sheets, xero). Registered at start-up by
 * the plugin that knows it (`Connections.register`); `settings()` is read on every Connect and
 * refresh, so endpoints known only once a sandbox listens are fine. Undefined settings: the
 * provider is not configured on this server and is not offered.
 */
export interface ConnectionProviderDefinition {
  provider: string;
  name: string;
  settings(): OAuthProviderSettings | undefined;
}
