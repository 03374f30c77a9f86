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
 * Asks the service worker to keep the page at `url` in PAGES_CACHE if it holds none yet: the first visit (made
 * before the worker controlled the page) and pages reached by client-side navigation, so a launch offline finds
 * an HTML page to start from. Its data comes from the page's offline copy (app/lib/offline-copies.ts).
 */
export const KEEP_PAGE = "KEEP_PAGE";

/**
 * The attribute the service worker adds to the <html> of a page it served from PAGES_CACHE instead of the server:
 * the page knows at once, with no round trip, that its data is an old copy.
 */
export const SAVED_PAGE_ATTRIBUTE = "data-saved-page";

/** The page's HTML with SAVED_PAGE_ATTRIBUTE on its root element. */
export const markSavedPage = (html: string) => html.replace(/<html(?=[\s>])/i, `<html ${SAVED_PAGE_ATTRIBUTE}=""`);

/** The screens that keep an offline copy, whose pages a launch offline must find. */
export const isKeptOffline = (pathname: string) => /^\/(?:home|bookmarks|notifications|wallet|messages(?:\/\d+)?|dashboard(?:\/(?:earnings|payouts))?)$/.test(pathname);

/**
 * Images already seen, readable offline: answered by the network first (a revoked access is never served from
 * here while online, and its copy is deleted), kept within MEDIA_CACHE_MAX_BYTES, least recently used out. Only
 * what the server gave the viewer (200) is kept: a locked item has no URL at all.
 */
export const MEDIA_CACHE = "media";
export const isMediaPath = (pathname: string) => /^\/media\//.test(pathname);
export const MEDIA_CACHE_MAX_BYTES = 100 * 1024 * 1024;
/** The caches that hold the signed-in person's content: CLEAR_PRIVATE_DATA deletes them all. */
export const PRIVATE_CACHES = [PAGES_CACHE, MEDIA_CACHE] as const;

/**
 * Paths the service worker never keeps in its page cache: the API, media (which has its own cache, above),
 * sockets, development pages, and the sandbox card form (a payment step must never be replayed from a stale copy).
 */
export const isNeverCached = (pathname: string) => /^\/(?:api|media|ws|dev|__dev|wallet\/top-up)(?:\/|$)/.test(pathname);
