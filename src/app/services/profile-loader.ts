import type { UserProfile } from '../../core/domain';
import type { ApiClient } from './api-client';

type ProfileGetter = Pick<ApiClient, 'get'>;

/** How long a reply is reused: covers one page load (layout, then the lazily loaded page). */
export const PROFILE_REUSE_MS = 10_000;

interface Entry {
  request: Promise<unknown>;
  at: number;
}

const cache = new WeakMap<ProfileGetter, Map<string, Entry>>();

function entriesOf(api: ProfileGetter): Map<string, Entry> {
  let entries = cache.get(api);
  if (!entries) {
    entries = new Map();
    cache.set(api, entries);
  }
  return entries;
}

/**
 * GET /api/platform/users/{id}/, shared by the callers of one page load: the layout's greeting
 * and My details both need the profile on /my-account and now make one call, not two. A failed
 * call is not kept; a reply is reused for PROFILE_REUSE_MS, or until `forgetProfile`.
 */
export function loadProfile<P extends UserProfile = UserProfile>(api: ProfileGetter, userId: string | number, now: () => number = Date.now): Promise<P> {
  const entries = entriesOf(api);
  const key = String(userId);
  const kept = entries.get(key);
  if (kept && now() - kept.at < PROFILE_REUSE_MS) return kept.request as Promise<P>;
  const request = api.get<P>(`/api/platform/users/${key}/`);
  const entry: Entry = { request, at: now() };
  entries.set(key, entry);
  request.catch(() => {
    if (entries.get(key) === entry) entries.delete(key);
  });
  return request;
}

/** Drops the kept reply after the profile changed (a save), so the next load asks again. */
export function forgetProfile(api: ProfileGetter, userId: string | number): void {
  cache.get(api)?.delete(String(userId));
}
