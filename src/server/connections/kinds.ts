import { contributionKind } from '../../core/contributions';
import type { ConnectorDeclaration } from '../../core/catalogue/vocabulary';
import type { ServerConfig } from '../config';

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

/** One endpoint of a connector: its address at the real provider, overridable by an environment variable. */
export interface EndpointSetting {
  /** the environment variable that overrides it (GOOGLE_TOKEN_URL) */
  env: string;
  default: string;
}

/**
 * The server half of an OAuth 2 connector: how its client authenticates, its endpoints (the
 * authorisation, token and revocation endpoints plus any API base its steps call, each with the
 * variable that overrides it), the variables of its OAuth app, and how to name the account.
 */
export interface OAuthConnectorSettings {
  /** the environment variables of the OAuth app (set together or not at all) */
  env: { clientId: string; clientSecret: string };
  endpoints: { authorization: EndpointSetting; token: EndpointSetting; revocation?: EndpointSetting } & Record<string, EndpointSetting | undefined>;
  /** how the client authenticates at the token endpoint (Google: post, Xero: basic) */
  clientAuth: 'basic' | 'post';
  /** extra authorization parameters (Google: access_type=offline, prompt=consent) */
  authorizationParams?: Record<string, string>;
  /** the account the new tokens reach (shown in the widget), read with the resolved endpoints */
  account(accessToken: string, endpoints: Record<string, string>): Promise<{ id?: string; name: string }>;
}

/** What a started sandbox answers: its endpoints (same names as the connector's) and its client. */
export interface SandboxEndpoints {
  endpoints: Record<string, string>;
  clientId: string;
  clientSecret: string;
}

/**
 * A connector's local look-alike: used when SANDBOX_PROVIDERS=true, or outside production while
 * the connector's client id is not set. `start` may be called once per connector sharing it: start
 * it once and answer every call. The sandbox must accept only `redirectUri` as a redirect.
 */
export interface ConnectorSandbox {
  start(ctx: { redirectUri: string; config: ServerConfig }): Promise<SandboxEndpoints>;
  stop?(): Promise<void>;
}

/**
 * A connector as a server plugin contributes it (`contribute(Connectors, {...})`): the shared
 * declaration (id, name, icon, catalogue id, auth kind) plus what only the server knows. An
 * OAuth 2 connector gives `oauth`; an API-key connector may give `verifyKey` (names the account
 * the key reaches, or throws to refuse it); either may give a `sandbox`.
 */
export type ConnectorDefinition = ConnectorDeclaration & {
  oauth?: OAuthConnectorSettings;
  verifyKey?(values: Record<string, unknown>): Promise<{ id?: string; name: string }>;
  sandbox?: ConnectorSandbox;
};

/** What the Connections module resolved for an OAuth connector at start-up. */
export interface ResolvedOAuth {
  endpoints: Record<string, string>;
  clientId: string;
  clientSecret: string;
  sandbox: boolean;
}

/** The connectors plugins declare: the widget, the catalogue's providers and the OAuth flow follow from them. */
export const Connectors = contributionKind<ConnectorDefinition>('connections.connector', 'Connector', (c) => c.id);
