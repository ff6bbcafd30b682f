import { BehaviorSubject } from 'rxjs';
import type { EventBus } from '../../core/event-bus';
import type { UserIdReply } from '../../core/domain';
import { Http, messageOf, ApiError } from './http';
import { StorageKeys, readJson, type KeyValueStorage } from './storage';
import type { PageNavigator } from './navigator';

/** The auth record kept in browser storage (spec section 3). */
export interface AuthRecord {
  /** ms timestamp after which the access token counts as expired */
  expire: number;
  token: string;
  refresh_token: string;
}

export interface SessionState {
  isAuth: boolean;
  userId: number | null;
}

export const WRONG_CREDENTIALS = 'Wrong email or password.';
export const NOT_VERIFIED = 'Please verify your account, then login.';
export const REFRESH_FAILED = 'Issue getting new token';

/** Refresh this long before the token's own expiry, so a request never carries a dying token. */
const REFRESH_MARGIN_MS = 15_000;
/** Fallbacks when a token carries no readable expiry (spec: 5 minutes, then 20 seconds). */
const LOGIN_FALLBACK_TTL_MS = 300_000;
const REFRESH_FALLBACK_TTL_MS = 20_000;

/** Reads the `exp` claim of a JWT without verifying it (the server verifies). */
export function tokenExpiry(token: string): number | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const exp = JSON.parse(json).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The Web Locks name under which the tabs of one browser take turns to refresh. */
export const REFRESH_LOCK = 'flowmatic-session-refresh';

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** navigator.locks where the browser has it (not jsdom, not old browsers). */
function browserLocks(): LockManagerLike | undefined {
  const nav = typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { locks?: LockManagerLike });
  return nav?.locks && typeof nav.locks.request === 'function' ? nav.locks : undefined;
}

export class SessionExpiredError extends Error {
  constructor() {
    super('Your session has expired. Please log in again.');
    this.name = 'SessionExpiredError';
  }
}

export type LoginResult = { ok: true } | { ok: false; message: string };

/**
 * The login state and tokens (spec section 4: Login, Session). Logged in means the stored flag
 * isAuth equals 'true'. Expiry comes from the token itself; a refresh happens silently before
 * it; when refresh fails or a reply says 401, storage is cleared and the user goes to /login.
 */
export class Session {
  readonly state$: BehaviorSubject<SessionState>;
  private refreshing: Promise<string> | null = null;

  constructor(
    private readonly http: Http,
    private readonly storage: KeyValueStorage,
    private readonly bus: EventBus,
    private readonly navigator: PageNavigator,
    private readonly now: () => number = () => Date.now(),
    private readonly locks: LockManagerLike | undefined = browserLocks(),
  ) {
    this.state$ = new BehaviorSubject<SessionState>(this.read());
  }

  private read(): SessionState {
    const id = Number(this.storage.getItem(StorageKeys.userId));
    return { isAuth: this.storage.getItem(StorageKeys.isAuth) === 'true', userId: Number.isFinite(id) && id > 0 ? id : null };
  }

  private emit(): void {
    this.state$.next(this.read());
  }

  get isAuth(): boolean {
    return this.storage.getItem(StorageKeys.isAuth) === 'true';
  }

  get userId(): number | null {
    return this.read().userId;
  }

  get workatoId(): number | null {
    const v = Number(this.storage.getItem(StorageKeys.workatoId));
    return Number.isFinite(v) && v > 0 ? v : null;
  }

  get authRecord(): AuthRecord | undefined {
    return readJson<AuthRecord>(this.storage, StorageKeys.auth);
  }

  private storeTokens(access: string, refresh: string, fallbackTtl: number): void {
    const record: AuthRecord = { expire: tokenExpiry(access) ?? this.now() + fallbackTtl, token: access, refresh_token: refresh };
    this.storage.setItem(StorageKeys.auth, JSON.stringify(record));
    this.storage.setItem(StorageKeys.token, access);
  }

  /** Spec section 4, Login: tokens, then the user id; only a verified user is let in. */
  async login(username: string, password: string): Promise<LoginResult> {
    let reply;
    try {
      reply = await this.http.send<{ access?: string; refresh?: string }>('/api/platform/api-jwt-token/', {
        method: 'POST',
        body: { username, password },
      });
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
    if (reply.status === 429) return { ok: false, message: messageOf(reply.body, WRONG_CREDENTIALS) };
    const access = reply.body?.access;
    if (!access) return { ok: false, message: WRONG_CREDENTIALS };
    this.storeTokens(access, reply.body.refresh ?? '', LOGIN_FALLBACK_TTL_MS);
    this.storage.setItem(StorageKeys.isAuth, 'true');

    let who;
    try {
      who = await this.http.send<UserIdReply>('/api/platform/userId', { headers: { Authorization: `Bearer ${access}` } });
    } catch (e) {
      this.clear();
      return { ok: false, message: (e as Error).message };
    }
    if (who.status !== 200 || !who.body?.is_verify) {
      this.clear();
      return { ok: false, message: who.status === 200 || who.status === 401 ? NOT_VERIFIED : messageOf(who.body, NOT_VERIFIED) };
    }
    this.storage.setItem(StorageKeys.userId, String(who.body.userID));
    this.storage.setItem(StorageKeys.workatoId, String(who.body.workato_id));
    this.storage.setItem(StorageKeys.timeZone, who.body.time_zone ?? '');
    this.emit();
    this.bus.publish('session/started', { userId: who.body.userID });
    return { ok: true };
  }

  /** Takes over a fresh token pair the server handed out (after a password change). */
  adoptTokens(access: string, refresh: string): void {
    if (!this.isAuth) return;
    this.storeTokens(access, refresh, LOGIN_FALLBACK_TTL_MS);
  }

  /** A valid access token, refreshed silently when close to expiry. */
  async accessToken(): Promise<string> {
    const record = this.authRecord;
    if (!this.isAuth || !record?.token) {
      this.expire('no-token');
      throw new SessionExpiredError();
    }
    if (this.now() < record.expire - REFRESH_MARGIN_MS) return record.token;
    return this.refresh();
  }

  /** Exchanges the refresh token for a new access token; on failure the session ends. */
  refresh(): Promise<string> {
    if (!this.refreshing) {
      this.refreshing = this.doRefresh().finally(() => (this.refreshing = null));
    }
    return this.refreshing;
  }

  /**
   * Refresh tokens rotate and are good for one exchange, so the tabs of a browser must not each
   * spend the same one: under a Web Lock, a tab first looks whether another tab has just
   * refreshed (the shared storage holds a fresh token) and only refreshes itself if not.
   * Without Web Locks (old browsers, jsdom) each tab refreshes on its own; the server's grace
   * window covers a race between them.
   */
  private doRefresh(): Promise<string> {
    const stale = this.authRecord?.token;
    if (!this.locks) return this.exchangeRefresh();
    return this.locks.request(REFRESH_LOCK, async () => {
      const record = this.authRecord;
      if (record?.token && record.token !== stale && this.now() < record.expire - REFRESH_MARGIN_MS) return record.token;
      return this.exchangeRefresh();
    });
  }

  private async exchangeRefresh(): Promise<string> {
    const record = this.authRecord;
    try {
      if (!record?.refresh_token) throw new Error(REFRESH_FAILED);
      const reply = await this.http.send<{ access?: string; refresh?: string; code?: string }>('/api/platform/api-jwt-token-refresh/', {
        method: 'POST',
        body: { refresh: record.refresh_token },
      });
      if (reply.status !== 200 || !reply.body?.access) throw new Error(REFRESH_FAILED);
      this.storeTokens(reply.body.access, reply.body.refresh ?? record.refresh_token, REFRESH_FALLBACK_TTL_MS);
      return reply.body.access;
    } catch (e) {
      if (e instanceof ApiError && e.status === 0) throw e; // offline: keep the session
      this.expire('refresh-failed');
      throw new Error(REFRESH_FAILED);
    }
  }

  /** Clears every stored key but the users' own choices (StorageKeys.userPreferences), without navigating. */
  clear(): void {
    const kept = this.storage.getItem(StorageKeys.userPreferences);
    this.storage.clear();
    if (kept !== null) this.storage.setItem(StorageKeys.userPreferences, kept);
    this.emit();
  }

  /** Ends the session after a failed refresh or a 401: clear storage, go to /login, reload. */
  expire(reason: 'refresh-failed' | 'unauthorised' | 'no-token'): void {
    this.clear();
    this.bus.publish('session/expired', { reason });
    this.navigator.assign('/login');
  }

  /**
   * The 'Log out' button: the server ends the session (its tokens stop working there too), then
   * storage is cleared. The call is not awaited: logging out never waits on the network.
   */
  logout(): void {
    const record = this.authRecord;
    if (record?.refresh_token || record?.token) {
      this.http
        .send('/api/platform/logout', {
          method: 'POST',
          body: record.refresh_token ? { refresh: record.refresh_token } : {},
          headers: record.token ? { Authorization: `Bearer ${record.token}` } : {},
        })
        .catch(() => undefined);
    }
    this.clear();
    this.bus.publish('session/ended', {});
    this.navigator.assign('/login');
  }
}
