// Names and rules shared by the service worker (app/sw/service-worker.ts), the page side (app/lib/offline.ts)
// and scripts/build-sw.mjs. No DOM or worker globals here: both sides import it.

/** Runtime cache of visited pages and their single-fetch data: private to the signed-in person. */
export const PAGES_CACHE = "pages";
export const PAGES_CACHE_MAX_ENTRIES = 60;
/** A slow mobile connection gets this long before a saved copy of the page is shown instead. */
export const NETWORK_TIMEOUT_SECONDS = 4;
export const OFFLINE_PAGE = "/offline.html";
export const CLEAR_PRIVATE_DATA = "CLEAR_PRIVATE_DATA";

/**
 * Paths the service worker never caches nor answers: the API, media, sockets, development pages, and the
 * sandbox card form (a payment step must never be replayed from a stale copy).
 */
export const isNeverCached = (pathname: string) => /^\/(?:api|media|ws|dev|__dev|wallet\/top-up)(?:\/|$)/.test(pathname);
