import { useRevalidator, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { del, get, update } from "idb-keyval";
import type { Shape } from "@shared/shape";
import { SAVED_PAGE_ATTRIBUTE } from "~/sw/policy";

/**
 * Offline reading: the screens people open on a flaky connection (home, bookmarks, messages, notifications,
 * wallet, dashboard) keep a copy of what they last showed in IndexedDB (idb-keyval's store, which
 * clearOfflineData wipes on sign-out, on a 401 and before another sign-in), saved as it changes. Offline, a
 * client-side loader (offlineLoader) hands the screen its copy and says when it was saved; a page started from
 * the service worker's cache (a launch offline) loads through it at once. A screen's loader data carries
 * `savedAt`, the server's time of the answer. Copies are versioned and checked with the screen's shape when read
 * back: a copy that no longer fits is ignored, never shown.
 */

/** Bump when a stored copy's shape changes: older copies are then ignored. */
const OFFLINE_SCHEMA_VERSION = 2;

/** A page older than this when it starts came from a saved copy, not from the server just now. */
const SAVED_COPY_AFTER_MS = 2 * 60_000;

/** A screen showing its copy asks the server again after this long, then twice as long each time, up to the max. */
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 60_000;

/** At most this many conversations keep a copy of their thread (the most recently opened ones). */
const KEPT_THREADS = 20;
const THREADS_INDEX = "offline:threads";

interface StoredCopy {
  version: number;
  savedAt: number;
  data: unknown;
}

/** What the screen shows when it is a saved copy: when it was saved (server time, ms). */
export interface OfflineMark {
  savedAt: number;
}

/** A screen's loader data: `savedAt` from the server, `offline` set by offlineLoader when it is a saved copy. */
export type WithOffline<T> = T & { offline?: OfflineMark | null };

const copyKey = (key: string) => `offline:${key}`;

let storageRefused = false;

/** Whether a write to IndexedDB has failed on this page (private mode, storage full): offline reading is off. */
export const offlineStorageRefused = () => storageRefused;

/** Notes that IndexedDB refused a read or write (`error`): offline reading is off, and the page says so once. */
export function storageRefusedBy(error: unknown) {
  console.warn("offline copies are off: IndexedDB refused", error);
  if (!storageRefused) {
    storageRefused = true;
    window.dispatchEvent(new Event(OFFLINE_STORAGE_REFUSED));
  }
}

/** Fired on window once, the first time a copy cannot be stored. */
export const OFFLINE_STORAGE_REFUSED = "offline-storage-refused";

/**
 * Stores what a screen shows under `key`, saved at `savedAt` (now, by the browser's clock: what a live screen
 * shows is current until it closes). `onlyIfMissing` stores it only where nothing is stored yet (a page started
 * from the cache, whose data is older than any copy). A thread's copy also counts among the KEPT_THREADS most
 * recent.
 */
async function saveCopy(
  key: string,
  data: unknown,
  { savedAt = Date.now(), onlyIfMissing = false } = {},
): Promise<void> {
  if (typeof indexedDB === "undefined") return;
  try {
    let kept = false;
    await update<StoredCopy>(copyKey(key), (stored) => {
      kept = onlyIfMissing && stored !== undefined && stored.version === OFFLINE_SCHEMA_VERSION;
      return kept ? stored! : { version: OFFLINE_SCHEMA_VERSION, savedAt, data };
    });
    if (kept) return;
    if (key.startsWith("thread:")) {
      let dropped: string[] = [];
      await update<string[]>(THREADS_INDEX, (threads = []) => {
        const next = [key, ...threads.filter((other) => other !== key)];
        dropped = next.slice(KEPT_THREADS);
        return next.slice(0, KEPT_THREADS);
      });
      await Promise.all(dropped.map((old) => del(copyKey(old))));
    }
  } catch (error) {
    storageRefusedBy(error);
  }
}

/**
 * Changes the data of the copy stored under `key`, if there is one of this version, where the screen that keeps it
 * is not open to save it again (a conversation read from its thread changes the list's copy). `change` gets the
 * stored data, checked by the screen's shape only when read back, so it must leave anything it does not know alone.
 */
export async function changeCopy(key: string, change: (data: unknown) => unknown): Promise<void> {
  if (typeof indexedDB === "undefined") return;
  try {
    await update<StoredCopy | undefined>(copyKey(key), (stored) =>
      stored?.version === OFFLINE_SCHEMA_VERSION ? { ...stored, data: change(stored.data) } : stored,
    );
  } catch (error) {
    storageRefusedBy(error);
  }
}

/** The stored copy under `key` if it exists, has this version and still fits `shape`; otherwise null. */
async function readCopy<T>(key: string, shape: Shape<T>): Promise<{ savedAt: number; data: T } | null> {
  if (typeof indexedDB === "undefined") return null;
  try {
    const stored = await get<StoredCopy>(copyKey(key));
    if (!stored || stored.version !== OFFLINE_SCHEMA_VERSION || typeof stored.savedAt !== "number") return null;
    return { savedAt: stored.savedAt, data: shape(stored.data) };
  } catch (error) {
    console.warn(`the offline copy ${key} is unreadable and is ignored`, error);
    return null;
  }
}

/**
 * A failed request that never reached the server (offline, connection refused), as opposed to an answer or a bug:
 * fetch's own TypeError ("Failed to fetch" in Chromium, "NetworkError…" in Firefox, "Load failed" in Safari), or
 * any failure while the browser says it is offline. Only a browser says so: the Worker's render has a `navigator`
 * without `onLine`, and a page it renders with an error (a 404) is never "offline".
 */
export const isNetworkFailure = (error: unknown) =>
  // A request given up after its timeout (RequestOptions.timeoutMs) is a network that did not answer, too.
  (error instanceof DOMException && error.name === "TimeoutError") ||
  (error instanceof TypeError && /failed to fetch|networkerror|load failed|network/i.test(error.message)) ||
  (typeof navigator !== "undefined" && navigator.onLine === false);

/** What a screen's loader throws offline when nothing was saved for it: the error boundary shows a calm state. */
export const OFFLINE_STATUS = 503;
const offlineWithoutCopy = () => new Response(null, { status: OFFLINE_STATUS, statusText: "Offline" });

/** Data older than SAVED_COPY_AFTER_MS, or any data while the browser knows it is offline, is not the server's now. */
const looksSaved = (savedAt: number) => Date.now() - savedAt > SAVED_COPY_AFTER_MS || !navigator.onLine;

/**
 * A route's clientLoader for offline reading. `keyOf` names the copy (null: this URL keeps none); `shape` checks
 * a copy read back. What the server answers is shown as it is (the service worker never answers a kept screen's
 * data from its cache); when the network fails, the stored copy is shown, marked `offline` with the time it was
 * saved. Offline with nothing stored, it throws offlineWithoutCopy().
 */
export function offlineLoader<T extends { savedAt: number }>(
  keyOf: (args: ClientLoaderFunctionArgs) => string | null,
  shape: Shape<T>,
) {
  return async (args: ClientLoaderFunctionArgs): Promise<WithOffline<T>> => {
    const key = keyOf(args);
    // Known to be offline: the copy is read while the server is tried, not after.
    const early = key !== null && knownOffline() ? readCopy(key, shape) : null;
    try {
      return { ...((await args.serverLoader()) as T), offline: null };
    } catch (error) {
      if (key === null || !isNetworkFailure(error)) throw error;
      const copy = await (early ?? readCopy(key, shape));
      if (!copy) throw offlineWithoutCopy();
      // The same copy read again (a retry that failed) is the same object: the screen keeps what it built on it.
      const last = lastShown.get(key);
      if (last && last.savedAt === copy.savedAt) return last.data as WithOffline<T>;
      const shown = { ...copy.data, offline: { savedAt: copy.savedAt } };
      lastShown.set(key, { savedAt: copy.savedAt, data: shown });
      return shown;
    }
  };
}

/** The copy each key last showed, by the time it was saved. */
const lastShown = new Map<string, { savedAt: number; data: unknown }>();

/**
 * Whether this page came from the service worker's page cache instead of the server (a launch offline, or on a
 * network too slow to answer): then its data is an old copy, even if it was kept a minute ago. The worker marks
 * such a page's <html> (SAVED_PAGE_ATTRIBUTE).
 */
const pageWasSaved = (): boolean =>
  typeof document !== "undefined" && document.documentElement.hasAttribute(SAVED_PAGE_ATTRIBUTE);

// A page served from the cache will read its copy as soon as it has hydrated: IndexedDB is opened meanwhile.
if (typeof document !== "undefined" && pageWasSaved()) void get(copyKey("warm-up")).catch(() => undefined);

/**
 * Whether the page knows it is offline: the browser says so, or the page itself came from the service worker's
 * cache. Then a failed request is no news to the person (no alert): the screens show their copies.
 */
export const knownOffline = (): boolean => !navigator.onLine || pageWasSaved();

/**
 * Keeps a screen's copy. While the screen is live (its data came from the server and it is kept up to date while
 * open), what it shows (`kept`, as it grows with older pages and live arrivals) is stored under `key`. A page that
 * started from the service worker's cache (a launch offline) stores its data only if no copy exists, then loads
 * again through offlineLoader, which shows the stored copy and says so. A screen showing a copy asks the server
 * again at once if it thinks it is online, whenever the browser says it is back online or the tab is shown
 * again, and every RETRY_FIRST_MS doubling up to RETRY_MAX_MS.
 */
export function useOfflineCopy(
  key: string | null,
  data: { savedAt: number; offline?: OfflineMark | null },
  kept: unknown,
): void {
  const { revalidate } = useRevalidator();
  // `offline` is undefined only for the data a page started with (no client loader ran yet).
  const started = data.offline === undefined;
  const copySavedAt = data.offline?.savedAt ?? null;
  // Whether the screen is live: nothing it renders, so a ref (a state would render the screen again after its
  // hydration, a long task on a phone). Decided by the first effect below, read by the second, which runs after it.
  const live = useRef(!started && copySavedAt === null);
  const keptNow = useRef(kept);
  keptNow.current = kept;

  useEffect(() => {
    if (!started) {
      live.current = copySavedAt === null;
      return;
    }
    const isCopy = pageWasSaved() || looksSaved(data.savedAt);
    live.current = !isCopy;
    if (isCopy && key !== null) {
      // Stored only where no copy exists, then shown through offlineLoader. The loader's read comes after this
      // write (IndexedDB runs a store's transactions in the order they were asked for), so both start at once.
      void saveCopy(key, keptNow.current, { savedAt: data.savedAt, onlyIfMissing: true });
      revalidate();
    }
    // Decided once per loader answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [started, copySavedAt, data.savedAt]);

  useEffect(() => {
    if (key !== null && live.current) void saveCopy(key, kept);
    // Also whenever the effect above may have decided anew.
  }, [key, kept, started, copySavedAt, data.savedAt]);

  useEffect(() => {
    if (key === null || copySavedAt === null) return;
    const again = () => {
      if (document.visibilityState === "visible") revalidate();
    };
    // The browser's "online" is not told of every network that comes back (a Wi-Fi without internet, a server
    // out of reach): ask again now and then too, less and less often.
    let delay = RETRY_FIRST_MS;
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      again();
      delay = Math.min(delay * 2, RETRY_MAX_MS);
      timer = setTimeout(tick, delay);
    };
    timer = setTimeout(tick, delay);
    if (navigator.onLine) again();
    window.addEventListener("online", again);
    document.addEventListener("visibilitychange", again);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("online", again);
      document.removeEventListener("visibilitychange", again);
    };
    // One schedule per copy shown (the same copy shown again keeps it), not one per render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, copySavedAt]);
}
