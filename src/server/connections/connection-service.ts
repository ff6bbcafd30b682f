import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { badRequest, notFound } from '../http/errors';
import { compileSchema, validationSentence } from '../http/schema-validation';
import type { ValidateFunction } from 'ajv';
import { ConnectFailedError, NotConnectedError, TokenKeyMissingError, TokenTamperedError, UnknownProviderError } from './errors';
import type { ConnectionProviderDefinition, ConnectorDefinition, OAuthProviderSettings, ResolvedOAuth } from './kinds';
import type { KeyFormSchema } from '../../core/catalogue/vocabulary';
import type { ProviderConnection } from '../../core/domain';
import { authorizationUrl, newAuthorizationRequest, OAuthGrantError, redeemCode, refreshTokens, revokeToken, type TokenSet } from './oauth-client';
import type { TokenCipher } from './token-cipher';
import './schema';

/** How long a Connect may take between pressing the button and coming back, seconds. */
export const PENDING_CONNECT_TTL_SECONDS = 10 * 60;

/** A connection as the widget shows it. */
export interface ConnectionView {
  id: number;
  provider: string;
  name: string;
  /** 'success' when connected, null when not (the provider's wording) */
  authorization_status: 'success' | null;
  account_name: string | null;
  /** why a connection was lost (a refused refresh), null otherwise */
  lost_reason: string | null;
  sandbox: boolean;
  /** an API-key connector only: the key form the widget renders (OAuth connectors carry neither field) */
  auth?: 'api-key';
  key_schema?: KeyFormSchema;
  key_ui_schema?: Record<string, unknown>;
}

/** A connector a plugin declared, as the service holds it. */
interface Declared {
  definition: ConnectorDefinition;
  /** an OAuth connector's endpoints and client on this server (undefined: not offered) */
  oauth?: ResolvedOAuth;
  /** an API-key connector's form check */
  validate?: ValidateFunction;
}

export interface ConnectionServiceDeps {
  db: Db;
  cipher: TokenCipher;
  /** where providers send the browser back (PUBLIC_URL + the callback path) */
  redirectUri: string;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  now?: () => number;
  /** refresh an access token this long before it expires, ms */
  refreshSkewMs?: number;
}

interface SecretPayload {
  a: string;
  r?: string;
  /** an API-key connection's form values */
  k?: Record<string, unknown>;
}

interface CredentialRow {
  id: number;
  provider: string;
  authorization_status: string | null;
  secret: string | null;
  expires_at: Date | string | null;
  account_id: string | null;
  account_name: string | null;
  lost_reason: string | null;
  version: number | null;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** The parameters of a provider's redirect that finishing a Connect reads (RFC 6749 4.1.2, RFC 9207 iss). */
const ANSWER_PARAMS = new Set(['code', 'state', 'error', 'error_description', 'error_uri', 'iss']);
const notStarted = () =>
  new ConnectFailedError('This sign-in does not match a Connect started in this browser (it may have expired): press Connect again.', 400, 'not_started');
const contextOf = (connectionId: number) => `connection:${connectionId}`;

/**
 * The connections of managed users to third-party apps: Connect (OAuth code flow with PKCE, the
 * state and verifier kept here and tied to the browser by a cookie), the token store (sealed
 * with AES-256-GCM), refresh before expiry with optimistic versioning (a rotated refresh token is
 * written in one conditional update), a refused refresh marks the connection lost with its
 * reason, Disconnect revokes at the provider. Every call is scoped to one managed user.
 */
export class ConnectionService {
  private readonly definitions = new Map<string, ConnectionProviderDefinition>();
  private readonly declared = new Map<string, Declared>();
  private readonly inflight = new Map<number, Promise<{ token: string; accountId: string | null }>>();
  private readonly now: () => number;
  private readonly skewMs: number;

  constructor(private readonly deps: ConnectionServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.skewMs = deps.refreshSkewMs ?? 60_000;
  }

  /** Where providers send the browser back after sign-in (register it at each provider). */
  get redirectUri(): string {
    return this.deps.redirectUri;
  }

  /** Makes a provider connectable (the connectors plugin registers Google Drive, Sheets and Xero). */
  register(definition: ConnectionProviderDefinition): void {
    if (this.definitions.has(definition.provider)) throw new Error(`Connection provider "${definition.provider}" is registered twice.`);
    this.definitions.set(definition.provider, definition);
  }

  /**
   * Makes a declared connector connectable (the Connections module does this at start-up for every
   * `Connectors` contribution): an OAuth one with the endpoints and client resolved for this
   * server (none: declared but not offered), an API-key one with its form.
   */
  declare(definition: ConnectorDefinition, oauth?: ResolvedOAuth): void {
    if (this.declared.has(definition.id) || this.definitions.has(definition.id)) throw new Error(`Connection provider "${definition.id}" is registered twice.`);
    const entry: Declared = { definition, oauth };
    if (definition.auth.kind === 'api-key')
      entry.validate = compileSchema({ ...definition.auth.schema, additionalProperties: definition.auth.schema.additionalProperties ?? false });
    this.declared.set(definition.id, entry);
    if (definition.auth.kind === 'oauth2') {
      const o = definition.oauth!;
      const scopes = definition.auth.scopes;
      this.register({
        provider: definition.id,
        name: definition.name,
        settings: () =>
          oauth && {
            authorizationUrl: oauth.endpoints.authorization,
            tokenUrl: oauth.endpoints.token,
            revocationUrl: oauth.endpoints.revocation,
            clientId: oauth.clientId,
            clientSecret: oauth.clientSecret,
            clientAuth: o.clientAuth,
            scopes,
            authorizationParams: o.authorizationParams,
            sandbox: oauth.sandbox,
            account: (token) => o.account(token, oauth.endpoints),
          },
      });
    }
  }

  /** Every connector plugins declared (offered on this server or not), by id. */
  declarations(): ConnectorDefinition[] {
    return [...this.declared.values()].map((d) => d.definition);
  }

  /**
   * Where a declared OAuth connector is reached on this server: its named endpoints (authorization,
   * token, revocation and the API bases it declared), its client and whether it is the sandbox.
   * Undefined when it is not offered here (or not an OAuth connector).
   */
  endpoints(provider: string): ResolvedOAuth | undefined {
    const oauth = this.declared.get(provider)?.oauth;
    return oauth && { ...oauth, endpoints: { ...oauth.endpoints } };
  }

  private keyConnector(provider: string): Declared | undefined {
    const d = this.declared.get(provider);
    return d?.definition.auth.kind === 'api-key' ? d : undefined;
  }

  /** The providers a user can connect on this server (configured ones), sorted by name. */
  providers(): Array<{ provider: string; name: string; sandbox: boolean }> {
    const out: Array<{ provider: string; name: string; sandbox: boolean }> = [];
    for (const d of this.definitions.values()) {
      const s = d.settings();
      if (s) out.push({ provider: d.provider, name: d.name, sandbox: s.sandbox });
    }
    for (const d of this.declared.values())
      if (d.definition.auth.kind === 'api-key') out.push({ provider: d.definition.id, name: d.definition.name, sandbox: false });
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** A connectable provider's name and definition (OAuth or API key); unknown or not configured: UnknownProviderError. */
  private definitionOf(provider: string): { provider: string; name: string } {
    const key = this.keyConnector(provider);
    if (key) return { provider, name: key.definition.name };
    return this.settingsOf(provider).definition;
  }

  private settingsOf(provider: string): { definition: ConnectionProviderDefinition; settings: OAuthProviderSettings } {
    const definition = this.definitions.get(provider);
    const settings = definition?.settings();
    if (!definition || !settings) throw new UnknownProviderError(provider);
    return { definition, settings };
  }

  /** Creates the missing `connections` rows (not connected) of every connectable provider. */
  async ensureRows(managedUserId: number): Promise<void> {
    const providers = this.providers();
    if (!providers.length) return;
    await this.deps.db
      .insertInto('connections')
      .values(providers.map((p) => ({ managed_user_id: managedUserId, provider: p.provider, name: p.name, authorization_status: null })))
      .onConflict((oc) => oc.columns(['managed_user_id', 'provider']).doNothing())
      .execute();
  }

  /**
   * Every `connections` row of the user, by id, as the automation provider's API answers them
   * (spec section 7: id, name, provider, authorization_status as stored), offered here or not.
   */
  async rowsOf(managedUserId: number): Promise<ProviderConnection[]> {
    return this.deps.db
      .selectFrom('connections')
      .select(['id', 'name', 'provider', 'authorization_status'])
      .where('managed_user_id', '=', managedUserId)
      .orderBy('id')
      .execute();
  }

  /** The user's connections, one per connectable provider, sorted by name (the widget's tabs). */
  async list(managedUserId: number): Promise<ConnectionView[]> {
    await this.ensureRows(managedUserId);
    const sandbox = new Map(this.providers().map((p) => [p.provider, p.sandbox]));
    const rows = await this.deps.db
      .selectFrom('connections as c')
      .leftJoin('connection_credentials as k', 'k.connection_id', 'c.id')
      .select(['c.id', 'c.provider', 'c.name', 'c.authorization_status', 'k.account_name', 'k.lost_reason'])
      .where('c.managed_user_id', '=', managedUserId)
      .execute();
    return rows
      .filter((r) => sandbox.has(r.provider))
      .map((r) => ({
        id: r.id,
        provider: r.provider,
        name: r.name,
        authorization_status: r.authorization_status === 'success' ? ('success' as const) : null,
        account_name: r.authorization_status === 'success' ? r.account_name : null,
        lost_reason: r.lost_reason ?? null,
        sandbox: sandbox.get(r.provider) ?? false,
        ...this.keyFields(r.provider),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  private keyFields(provider: string): Pick<ConnectionView, 'auth' | 'key_schema' | 'key_ui_schema'> {
    const auth = this.keyConnector(provider)?.definition.auth;
    if (auth?.kind !== 'api-key') return {};
    return { auth: 'api-key', key_schema: auth.schema, ...(auth.uiSchema ? { key_ui_schema: auth.uiSchema } : {}) };
  }

  /**
   * Connects an API-key connector: the values must match its form's schema (else 400 naming the
   * field), its `verifyKey` (if any) names the account or refuses the key (400 with its reason),
   * then they are sealed beside the user's connection row like OAuth tokens, marked 'success'.
   */
  async connectKey(managedUserId: number, provider: string, values: unknown): Promise<{ provider: string; name: string; accountName: string }> {
    const declared = this.keyConnector(provider);
    if (!declared) {
      if (this.definitions.has(provider))
        throw badRequest(`${this.definitionOf(provider).name} is connected by signing in at the provider, not with a key: press Connect.`);
      throw new UnknownProviderError(provider);
    }
    const { definition, validate } = declared;
    if (!values || typeof values !== 'object' || Array.isArray(values)) throw badRequest(`Send the ${definition.name} key form as a JSON object.`);
    const form = { ...(values as Record<string, unknown>) };
    if (!validate!(form)) throw badRequest(validationSentence(validate!));
    let account: { id?: string; name: string };
    try {
      account = definition.verifyKey ? await definition.verifyKey(form) : { name: `key ending ${this.primaryKey(definition, form).slice(-4)}` };
    } catch (e) {
      throw badRequest(`${definition.name} refused the key: ${(e as Error).message}`);
    }
    await this.store(managedUserId, { provider, name: definition.name }, { accessToken: this.primaryKey(definition, form) }, account, form);
    this.deps.log.info({ provider, managedUserId }, 'connection made');
    return { provider, name: definition.name, accountName: account.name };
  }

  /** The key steps receive as the access token: the form's first required field. */
  private primaryKey(definition: ConnectorDefinition, form: Record<string, unknown>): string {
    const auth = definition.auth as Extract<ConnectorDefinition['auth'], { kind: 'api-key' }>;
    return String(form[auth.schema.required![0]] ?? '');
  }

  /** An API-key connection's form values (NotConnectedError when the user has none). */
  async keyValues(managedUserId: number, provider: string): Promise<{ values: Record<string, unknown>; accountId: string | null }> {
    const { name } = this.definitionOf(provider);
    const row = await this.row({ managedUserId, provider });
    if (!row || row.authorization_status !== 'success' || !row.secret) throw new NotConnectedError(provider, name, row?.lost_reason ?? undefined);
    const payload = await this.readOrLose(row, name);
    return { values: payload.k ?? {}, accountId: row.account_id };
  }

  /**
   * Starts a Connect: a new state and PKCE verifier kept on the server under the hash of a random
   * browser cookie. Returns the consent page address and the cookie value to set (HttpOnly).
   */
  async begin(user: { userId: number; managedUserId: number }, provider: string): Promise<{ url: string; cookie: string }> {
    const key = this.keyConnector(provider);
    if (key) throw badRequest(`${key.definition.name} is connected with a key, not by signing in: fill in its form in the connections.`);
    const { settings } = this.settingsOf(provider);
    const { verifier, challenge, state } = await newAuthorizationRequest();
    const cookie = randomBytes(32).toString('base64url');
    const id = sha256(cookie);
    await this.deps.db.deleteFrom('oauth_pending').where('expires_at', '<', new Date(this.now())).execute();
    await this.deps.db
      .insertInto('oauth_pending')
      .values({
        id,
        user_id: user.userId,
        managed_user_id: user.managedUserId,
        provider,
        state_hash: sha256(state),
        verifier: this.deps.cipher.seal(verifier, `pending:${id}`),
        expires_at: new Date(this.now() + PENDING_CONNECT_TTL_SECONDS * 1000),
      })
      .execute();
    return { url: authorizationUrl(settings, { challenge, state, redirectUri: this.deps.redirectUri }), cookie };
  }

  /**
   * The provider's redirect came back to this browser: the cookie finds the pending Connect, the
   * state must match it (a mismatch uses the Connect up), and the answer is parked, sealed, until
   * the signed-in user confirms it (`complete`). Nothing is redeemed and no grant is stored here:
   * the callback cannot see who is signed in (sessions are bearer tokens, not cookies).
   */
  async returned(cookie: string | undefined, callback: URLSearchParams): Promise<{ provider: string }> {
    if (!cookie) throw notStarted();
    const id = sha256(cookie);
    const pending = await this.deps.db.selectFrom('oauth_pending').selectAll().where('id', '=', id).where('callback', 'is', null).executeTakeFirst();
    if (!pending || new Date(pending.expires_at).getTime() < this.now()) throw notStarted();
    if (sha256(callback.get('state') ?? '') !== pending.state_hash) {
      await this.deps.db.deleteFrom('oauth_pending').where('id', '=', id).execute();
      throw new ConnectFailedError(
        'The sign-in came back with a state that does not match your Connect, so it was refused: press Connect again.',
        400,
        'state_mismatch',
      );
    }
    const answer = new URLSearchParams();
    for (const [k, v] of callback) if (ANSWER_PARAMS.has(k)) answer.set(k, v.slice(0, 2000));
    await this.deps.db
      .updateTable('oauth_pending')
      .set({ callback: this.deps.cipher.seal(answer.toString(), `callback:${id}`) })
      .where('id', '=', id)
      .where('callback', 'is', null)
      .execute();
    return { provider: pending.provider };
  }

  /**
   * Finishes a Connect for the signed-in user of the browser it came back to: the cookie finds
   * the pending Connect (used once), which must have been started by this same user (a Connect
   * link opened by anyone else is refused and nothing is stored); then the code is redeemed with
   * its verifier and the tokens are sealed beside the user's connection row, marked 'success'.
   */
  async complete(
    cookie: string | undefined,
    signedIn: { userId: number },
  ): Promise<{ provider: string; name: string; accountName: string; managedUserId: number }> {
    if (!cookie) throw notStarted();
    const id = sha256(cookie);
    const pending = await this.deps.db.deleteFrom('oauth_pending').where('id', '=', id).where('callback', 'is not', null).returningAll().executeTakeFirst();
    if (!pending || !pending.callback || new Date(pending.expires_at).getTime() < this.now()) throw notStarted();
    if (pending.user_id !== signedIn.userId) {
      this.deps.log.warn(
        { provider: pending.provider, startedBy: pending.user_id, signedIn: signedIn.userId },
        'a Connect started by another user was refused',
      );
      throw new ConnectFailedError(
        'This Connect was started by another Flowmatic account, so nothing was connected. Sign in as the account that pressed Connect, then press Connect again.',
        403,
        'other_account',
      );
    }
    const callback = new URLSearchParams(this.deps.cipher.open(pending.callback, `callback:${id}`));
    const state = callback.get('state') ?? '';
    const { definition, settings } = this.settingsOf(pending.provider);
    const verifier = this.deps.cipher.open(pending.verifier, `pending:${id}`);
    let tokens: TokenSet;
    try {
      tokens = await redeemCode(settings, callback, { state, verifier, redirectUri: this.deps.redirectUri }, this.now());
    } catch (e) {
      throw new ConnectFailedError(`${definition.name} could not be connected. ${(e as Error).message}`, 502);
    }
    let account: { id?: string; name: string };
    try {
      account = await settings.account(tokens.accessToken);
    } catch (e) {
      throw new ConnectFailedError(`${definition.name} answered, but the account could not be read: ${(e as Error).message}`, 502);
    }
    await this.store(pending.managed_user_id, definition, tokens, account);
    this.deps.log.info({ provider: definition.provider, managedUserId: pending.managed_user_id }, 'connection made');
    return { provider: definition.provider, name: definition.name, accountName: account.name, managedUserId: pending.managed_user_id };
  }

  private async store(
    managedUserId: number,
    definition: Pick<ConnectionProviderDefinition, 'provider' | 'name'>,
    tokens: TokenSet,
    account: { id?: string; name: string },
    keyValues?: Record<string, unknown>,
  ): Promise<number> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('connections')
        .values({ managed_user_id: managedUserId, provider: definition.provider, name: definition.name, authorization_status: 'success' })
        .onConflict((oc) => oc.columns(['managed_user_id', 'provider']).doUpdateSet({ authorization_status: 'success' }))
        .returning('id')
        .executeTakeFirstOrThrow();
      const secret = this.deps.cipher.seal(
        JSON.stringify({ a: tokens.accessToken, r: tokens.refreshToken, k: keyValues } satisfies SecretPayload),
        contextOf(row.id),
      );
      const values = {
        secret,
        expires_at: tokens.expiresAt ?? null,
        account_id: account.id ?? null,
        account_name: account.name.slice(0, 200),
        lost_reason: null,
        updated_at: new Date(this.now()),
      };
      await trx
        .insertInto('connection_credentials')
        .values({ connection_id: row.id, version: 1, ...values })
        .onConflict((oc) => oc.column('connection_id').doUpdateSet({ ...values, version: sql`connection_credentials.version + 1` }))
        .execute();
      return row.id;
    });
  }

  private async row(where: { managedUserId: number; provider?: string; connectionId?: number }): Promise<CredentialRow | undefined> {
    let q = this.deps.db
      .selectFrom('connections as c')
      .leftJoin('connection_credentials as k', 'k.connection_id', 'c.id')
      .select(['c.id', 'c.provider', 'c.authorization_status', 'k.secret', 'k.expires_at', 'k.account_id', 'k.account_name', 'k.lost_reason', 'k.version'])
      .where('c.managed_user_id', '=', where.managedUserId);
    if (where.provider !== undefined) q = q.where('c.provider', '=', where.provider);
    if (where.connectionId !== undefined) q = q.where('c.id', '=', where.connectionId);
    return q.executeTakeFirst();
  }

  private openSecret(row: CredentialRow): SecretPayload {
    return JSON.parse(this.deps.cipher.open(row.secret!, contextOf(row.id))) as SecretPayload;
  }

  /** One of the user's own connections (its provider); another user's id is unknown (404). */
  async ownConnection(managedUserId: number, connectionId: number): Promise<{ id: number; provider: string; connected: boolean }> {
    const row = await this.row({ managedUserId, connectionId });
    if (!row) throw notFound('Connection not found.');
    return { id: row.id, provider: row.provider, connected: row.authorization_status === 'success' && !!row.secret };
  }

  /**
   * A valid access token of the user's connection to `provider`, refreshed first when it expires
   * within the skew. A refused refresh marks the connection lost and throws NotConnectedError;
   * a network failure throws (the step retries). One refresh per connection at a time.
   */
  async accessToken(managedUserId: number, provider: string): Promise<{ token: string; accountId: string | null }> {
    const definition = this.definitionOf(provider);
    const row = await this.row({ managedUserId, provider });
    if (!row || row.authorization_status !== 'success' || !row.secret) {
      throw new NotConnectedError(provider, definition.name, row?.lost_reason ?? undefined);
    }
    const expiresAt = row.expires_at ? new Date(row.expires_at).getTime() : Infinity;
    if (expiresAt - this.skewMs > this.now()) {
      const payload = this.readOrLose(row, definition.name);
      if (!this.deps.cipher.isCurrent(row.secret)) await this.reseal(row, payload);
      return { token: (await payload).a, accountId: row.account_id };
    }
    return this.refreshOnce(managedUserId, row, definition.name);
  }

  /**
   * The provider refused an access token that had not expired (the grant was revoked: by the user
   * at the provider, or with another connection of the same grant): refreshes at once. A refused
   * refresh marks the connection lost (NotConnectedError), so the widget and the setup screens
   * show it not connected, with the reason, instead of connected; otherwise the fresh token is
   * returned for one retry.
   */
  async rejected(managedUserId: number, provider: string): Promise<{ token: string; accountId: string | null }> {
    const definition = this.definitionOf(provider);
    const row = await this.row({ managedUserId, provider });
    if (!row || row.authorization_status !== 'success' || !row.secret) {
      throw new NotConnectedError(provider, definition.name, row?.lost_reason ?? undefined);
    }
    if (this.keyConnector(provider)) {
      // a key cannot be refreshed: the provider refusing it ends the connection
      const reason = 'the provider refused the key';
      await this.markLost(row.id, reason);
      throw new NotConnectedError(provider, definition.name, reason);
    }
    return this.refreshOnce(managedUserId, row, definition.name);
  }

  /** One refresh per connection at a time: concurrent callers share it. */
  private refreshOnce(managedUserId: number, row: CredentialRow, name: string): Promise<{ token: string; accountId: string | null }> {
    const running = this.inflight.get(row.id);
    if (running) return running;
    const refresh = this.refresh(managedUserId, row, name).finally(() => this.inflight.delete(row.id));
    this.inflight.set(row.id, refresh);
    return refresh;
  }

  private async readOrLose(row: CredentialRow, name: string): Promise<SecretPayload> {
    try {
      return this.openSecret(row);
    } catch (e) {
      if (e instanceof TokenKeyMissingError || e instanceof TokenTamperedError) {
        await this.markLost(row.id, e.message);
        throw new NotConnectedError(row.provider, name, e.message);
      }
      throw e;
    }
  }

  private async reseal(row: CredentialRow, payload: Promise<SecretPayload>): Promise<void> {
    const secret = this.deps.cipher.seal(JSON.stringify(await payload), contextOf(row.id));
    await this.deps.db
      .updateTable('connection_credentials')
      .set({ secret, version: row.version! + 1 })
      .where('connection_id', '=', row.id)
      .where('version', '=', row.version!)
      .execute();
  }

  private async refresh(managedUserId: number, row: CredentialRow, name: string): Promise<{ token: string; accountId: string | null }> {
    const { settings } = this.settingsOf(row.provider);
    const payload = await this.readOrLose(row, name);
    if (!payload.r) {
      const reason = 'the access token expired and the provider gave no refresh token';
      await this.markLost(row.id, reason);
      throw new NotConnectedError(row.provider, name, reason);
    }
    let tokens: TokenSet;
    try {
      tokens = await refreshTokens(settings, payload.r, this.now());
    } catch (e) {
      if (e instanceof OAuthGrantError && e.invalidGrant) {
        await this.markLost(row.id, e.message);
        throw new NotConnectedError(row.provider, name, e.message);
      }
      throw e;
    }
    const next: SecretPayload = { a: tokens.accessToken, r: tokens.refreshToken ?? payload.r };
    // the new pair lands only on the version that was read: a rotated refresh token is never lost
    const updated = await this.deps.db
      .updateTable('connection_credentials')
      .set({
        secret: this.deps.cipher.seal(JSON.stringify(next), contextOf(row.id)),
        expires_at: tokens.expiresAt ?? null,
        version: row.version! + 1,
        updated_at: new Date(this.now()),
      })
      .where('connection_id', '=', row.id)
      .where('version', '=', row.version!)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1) return { token: next.a, accountId: row.account_id };
    // another process refreshed first: use what it stored
    const fresh = await this.row({ managedUserId, connectionId: row.id });
    if (!fresh || fresh.authorization_status !== 'success' || !fresh.secret) throw new NotConnectedError(row.provider, name, fresh?.lost_reason ?? undefined);
    return { token: (await this.readOrLose(fresh, name)).a, accountId: fresh.account_id };
  }

  /** Marks a connection lost: not connected any more, its tokens forgotten, the reason kept for the screens. */
  async markLost(connectionId: number, reason: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('connections').set({ authorization_status: null }).where('id', '=', connectionId).execute();
      await trx
        .updateTable('connection_credentials')
        .set({ secret: null, lost_reason: reason.slice(0, 500), version: sql`version + 1`, updated_at: new Date(this.now()) })
        .where('connection_id', '=', connectionId)
        .execute();
    });
    this.deps.log.warn({ connectionId, reason }, 'connection lost');
  }

  /**
   * Disconnects one of the user's connections and forgets its tokens. Its grant is revoked at the
   * provider only when no other connection of the user shares it: Google Drive and Google Sheets
   * are one OAuth client, and revoking either's token ends the grant of both (RFC 7009 lets a
   * provider revoke the whole grant; Google does), so disconnecting Sheets leaves Drive working
   * and the grant goes with the last of them. Another user's connection id is unknown (404).
   * Returns whether the provider confirmed a revocation (the tokens are forgotten either way).
   */
  async disconnect(managedUserId: number, connectionId: number): Promise<{ revoked: boolean }> {
    const row = await this.row({ managedUserId, connectionId });
    if (!row) throw notFound('Connection not found.');
    let revoked = false;
    if (row.secret && row.authorization_status === 'success' && !this.keyConnector(row.provider) && !(await this.grantStillUsed(managedUserId, row))) {
      try {
        const payload = this.openSecret(row);
        const { settings } = this.settingsOf(row.provider);
        await revokeToken(settings, payload.r ?? payload.a);
        revoked = true;
      } catch (e) {
        this.deps.log.warn({ err: e, connectionId }, 'revocation at the provider failed; the tokens are forgotten anyway');
      }
    }
    await this.deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('connections').set({ authorization_status: null }).where('id', '=', connectionId).execute();
      await trx.deleteFrom('connection_credentials').where('connection_id', '=', connectionId).execute();
    });
    return { revoked };
  }

  /** Whether another connected connection of the user holds the same grant: the same OAuth client at the same provider, for the same account. */
  private async grantStillUsed(managedUserId: number, row: CredentialRow): Promise<boolean> {
    const client = this.clientOf(row.provider);
    if (!client) return false;
    const others = await this.deps.db
      .selectFrom('connections as c')
      .innerJoin('connection_credentials as k', 'k.connection_id', 'c.id')
      .select(['c.provider', 'k.account_id'])
      .where('c.managed_user_id', '=', managedUserId)
      .where('c.id', '!=', row.id)
      .where('c.authorization_status', '=', 'success')
      .where('k.secret', 'is not', null)
      .execute();
    return others.some((o) => o.account_id === row.account_id && this.clientOf(o.provider) === client);
  }

  /** The OAuth client a provider's grants belong to (token endpoint and client id), undefined when not configured. */
  private clientOf(provider: string): string | undefined {
    const settings = this.definitions.get(provider)?.settings();
    return settings ? `${settings.tokenUrl} ${settings.clientId}` : undefined;
  }
}
