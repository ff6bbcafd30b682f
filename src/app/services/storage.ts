/** The browser storage keys of spec section 3. */
export const StorageKeys = {
  auth: 'auth',
  token: 'token',
  isAuth: 'isAuth',
  userId: 'userId',
  workatoId: 'workatoId',
  timeZone: 'time_zone',
  shouldCollapseNews: 'shouldCollapseNews',
  breadcrumbs: 'breadcrumbs',
  /** Per-user choices that outlive a log-out, `{ [userId]: { [name]: value } }` (kept by the session's clear). */
  userPreferences: 'userPreferences',
} as const;

/** The subset of the Web Storage API the shell uses; bound to localStorage / sessionStorage. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  clear(): void;
}

/** An in-memory storage, for tests and for browsers that refuse Web Storage. */
export class MemoryStorage implements KeyValueStorage {
  private readonly data = new Map<string, string>();
  getItem(key: string): string | null {
    return this.data.has(key) ? (this.data.get(key) as string) : null;
  }
  setItem(key: string, value: string): void {
    this.data.set(key, String(value));
  }
  removeItem(key: string): void {
    this.data.delete(key);
  }
  clear(): void {
    this.data.clear();
  }
}

export function readJson<T>(storage: KeyValueStorage, key: string): T | undefined {
  const raw = storage.getItem(key);
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

type UserPreferences = Record<string, Record<string, unknown>>;

/** One user's stored choice (e.g. the collapsed intro panel), kept across log-outs. */
export function readUserPreference<T>(storage: KeyValueStorage, userId: number, name: string): T | undefined {
  const all = readJson<UserPreferences>(storage, StorageKeys.userPreferences);
  return all && typeof all === 'object' ? (all[String(userId)]?.[name] as T | undefined) : undefined;
}

export function writeUserPreference(storage: KeyValueStorage, userId: number, name: string, value: unknown): void {
  const read = readJson<UserPreferences>(storage, StorageKeys.userPreferences);
  const all: UserPreferences = read && typeof read === 'object' ? read : {};
  all[String(userId)] = { ...all[String(userId)], [name]: value };
  storage.setItem(StorageKeys.userPreferences, JSON.stringify(all));
}
