import { createHash, randomBytes } from 'node:crypto';
import { token } from '../../core/di';
import type { Db } from '../db/database';
import type { AuthUser } from '../auth/guard';
import type { AccountDirectory } from '../auth/users';
import { badRequest, notFound } from '../http/errors';
import { iso } from '../catalogue/store';
import { AUTH_TABLES, InvalidatingCache } from '../catalogue/cache';
import { changeFeedOf } from '../db/change-feed';
import './schema';

/** Every key starts with this, so a leaked one is recognisable (and secret scanners can find it). */
export const KEY_PREFIX = 'fm_';
/** Keys one user may hold at once (revoked ones do not count). */
export const MAX_KEYS_PER_USER = 20;
/** last_used_at is written at most this often per key (one write per call would double the cost of a call). */
const TOUCH_INTERVAL_MS = 10_000;

/** A key as its owner sees it in the list: never the secret. */
export interface ApiKeyView {
  id: number;
  name: string;
  /** the key's first characters, e.g. "fm_Ab3x" */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

/** The reply of a new key: the only time the whole key is shown. */
export interface CreatedApiKey {
  id: number;
  name: string;
  key: string;
  created_at: string;
}

/** The caller behind a key. */
export interface KeyCaller {
  keyId: number;
  keyName: string;
  user: AuthUser;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Whether a bearer token looks like one of our keys (else it is not looked up at all). */
export function looksLikeKey(value: string): boolean {
  return value.startsWith(KEY_PREFIX) && /^fm_[A-Za-z0-9_-]{20,100}$/.test(value);
}

/**
 * The users' API keys: created with a random secret shown once, stored as its SHA-256 (a key
 * has 256 random bits, so a fast hash is enough and each call costs one indexed lookup), listed
 * without the secret, revoked at once, and resolved to their user on every call.
 */
export class ApiKeys {
  private readonly touched = new Map<number, number>();
  /**
   * Resolved keys by hash, dropped on any write to the keys or the users (a revocation, a
   * verification, a password change), here or, through the Redis bridge, in another process;
   * only where the database reports its writes (as for the login guard's cache).
   */
  private readonly resolved?: InvalidatingCache<string, KeyCaller | null>;

  /** `accounts`: the auth module's directory, which resolves a key's user and workspace. */
  constructor(
    private readonly db: Db,
    private readonly accounts: Pick<AccountDirectory, 'byId'>,
  ) {
    const feed = changeFeedOf(db);
    if (feed) {
      this.resolved = new InvalidatingCache(50_000);
      this.resolved.clearOn(feed, ['api_keys', ...AUTH_TABLES]);
    }
  }

  async create(userId: number, rawName: unknown): Promise<CreatedApiKey> {
    const name = typeof rawName === 'string' ? rawName.trim() : '';
    if (!name) throw badRequest('Please give the key a name, e.g. "Reporting script".');
    const active = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(active.n) >= MAX_KEYS_PER_USER) throw badRequest(`You have ${MAX_KEYS_PER_USER} keys already: revoke one you no longer use first.`);
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await this.db
      .insertInto('api_keys')
      .values({ user_id: userId, name, prefix: key.slice(0, 7), secret_hash: hashKey(key) })
      .returning(['id', 'name', 'created_at'])
      .executeTakeFirstOrThrow();
    return { id: row.id, name: row.name, key, created_at: iso(row.created_at) };
  }

  async list(userId: number): Promise<ApiKeyView[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'prefix', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      prefix: r.prefix,
      created_at: iso(r.created_at),
      last_used_at: r.last_used_at ? iso(r.last_used_at) : null,
    }));
  }

  /** Revokes one of the user's keys; another user's (or an unknown) id is not found. */
  async revoke(userId: number, keyId: number): Promise<void> {
    const done = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('id', '=', keyId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!Number(done.numUpdatedRows)) throw notFound('API key not found.');
  }

  /** The user of a live key (verified or not: the caller decides), or undefined. */
  async resolve(key: string): Promise<KeyCaller | undefined> {
    if (!looksLikeKey(key)) return undefined;
    const hash = hashKey(key);
    const found = this.resolved ? await this.resolved.get(hash, () => this.lookup(hash)) : await this.lookup(hash);
    return found ?? undefined;
  }

  private async lookup(hash: string): Promise<KeyCaller | null> {
    const key = await this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'user_id'])
      .where('secret_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!key) return null;
    // the key's user through the auth module (owner of the users and their workspaces)
    const user = await this.accounts.byId(key.user_id);
    if (!user) return null;
    return { keyId: key.id, keyName: key.name, user };
  }

  /** Records that a key was used (at most once per TOUCH_INTERVAL_MS per key). */
  async touch(keyId: number, now = Date.now()): Promise<void> {
    const last = this.touched.get(keyId);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
    if (this.touched.size > 50_000) this.touched.clear();
    this.touched.set(keyId, now);
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(now) })
      .where('id', '=', keyId)
      .execute();
  }
}

export const ApiKeysToken = token<ApiKeys>('ApiKeys');
