// Session-storage flags the app sets to stop reload loops (SPEC sections 2 and 4). The
// login page clears all of them; the guard's Refresh Page clears the first three.

export const SESSION_MARKERS = {
  serviceWorkerReload: 'kontor:sw-reload',
  forcedCacheReload: 'kontor:force-cache-reload',
  cacheManagerInit: 'kontor:cache-manager-init',
  cacheManagerTimestamp: 'kontor:cache-manager-timestamp',
  versionManagerReload: 'kontor:version-manager-reload',
  lastCacheVersion: 'kontor:last-cache-version',
} as const;

const remove = (keys: string[]) => {
  try {
    for (const key of keys) window.sessionStorage.removeItem(key);
  } catch {
    // Storage can be unavailable (private mode, blocked); nothing to clear then.
  }
};

/** Refresh Page in the guard: the three markers SPEC names, then a reload. */
export const clearGuardMarkers = () =>
  remove([
    SESSION_MARKERS.serviceWorkerReload,
    SESSION_MARKERS.forcedCacheReload,
    SESSION_MARKERS.cacheManagerInit,
  ]);

/** On the login page: every reload-loop flag. */
export const clearReloadLoopFlags = () => remove(Object.values(SESSION_MARKERS));

const profileKey = (uid: string) => `kontor:profile:${uid}`;
const syncQueueKey = (uid: string) => `kontor:sync-queue:${uid}`;

export const readCachedProfile = <T>(uid: string): T | null => {
  try {
    const raw = window.localStorage.getItem(profileKey(uid));
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
};

export const writeCachedProfile = (uid: string, profile: unknown) => {
  try {
    window.localStorage.setItem(profileKey(uid), JSON.stringify(profile));
  } catch {
    // A full or blocked storage only costs the cache.
  }
};

/** Removes the cached profile and the offline sync queue of a user (login and logout). */
export const clearUserCache = (uid: string) => {
  try {
    window.localStorage.removeItem(profileKey(uid));
    window.localStorage.removeItem(syncQueueKey(uid));
  } catch {
    // Nothing cached when storage is unavailable.
  }
};
