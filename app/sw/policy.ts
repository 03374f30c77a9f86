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

/** How long a link tapped before the hydration waits for it (EARLY_LINKS_SCRIPT) before it loads as a document. */
const EARLY_LINK_FALLBACK_MS = 5000;

/**
 * Links tapped on a kept page before it has hydrated. A page served from the page cache (offline, or on a network
 * slower than NETWORK_TIMEOUT_SECONDS) is shown at once, well before its JavaScript has run. Until
 * React has hydrated it, a tap on a link is the browser's own document load, and offline the worker has that
 * address only if it was once loaded as a document: a screen the app opened online by its own navigation kept its
 * data (single-fetch, or the screen's offline copy), not a page, and the tap would show the offline page. This
 * script, put into the kept page's <head> by markSavedPage, holds a plain tap on a same-origin link in this tab until
 * the root marks the page hydrated (app/root.tsx), then has Remix's router follow it, as the app's own link would
 * (not a link to a file or the API, which are no screens of the app, nor one within the page, such as the skip link).
 * Should the hydration not come within EARLY_LINK_FALLBACK_MS, the link is loaded as a document after all. The
 * script takes itself out of the document as it runs, so React hydrates the <head> it rendered. Only a
 * kept page carries it: a page from the network is never held back for JavaScript that may take seconds on a slow
 * phone, and no page's HTML or bundle grows by it.
 */
export const EARLY_LINKS_SCRIPT =
  `(()=>{const d=document,h=d.documentElement,k="hydrated";let to;d.currentScript.remove();` +
  `d.addEventListener("click",e=>{if(k in h.dataset||e.defaultPrevented||e.button||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey)return;` +
  `const a=e.target instanceof Element&&e.target.closest("a[href]");` +
  `if(!a||(a.target&&a.target!="_self")||a.hasAttribute("download")||a.origin!==location.origin||/^\\/(?:\\/|(?:api|media|ws|dev)(?:\\/|$))/.test(a.pathname)` +
  `||(a.hash&&a.pathname===location.pathname&&a.search===location.search))return;` +
  `e.preventDefault();const u=to=a.href;setTimeout(()=>{if(to===u&&!(k in h.dataset))location.assign(u)},${EARLY_LINK_FALLBACK_MS})},!0);` +
  `new MutationObserver((r,o)=>{if(!(k in h.dataset))return;o.disconnect();if(!to)return;const t=new URL(to);to=void 0;window.__remixRouter.navigate(t.pathname+t.search+t.hash)})` +
  `.observe(h,{attributeFilter:["data-hydrated"]})})()`;

/**
 * The page's HTML with SAVED_PAGE_ATTRIBUTE on its root element and EARLY_LINKS_SCRIPT first in its <head>, with
 * the script-src nonce of the page's Content-Security-Policy (`csp`), which came with it (base64 characters only).
 */
export function markSavedPage(html: string, csp: string | null = null): string {
  const nonce = csp ? /(?:^|;)\s*script-src\s[^;]*'nonce-([A-Za-z0-9+/_=-]+)'/.exec(csp)?.[1] : undefined;
  const script = `<script${nonce ? ` nonce="${nonce}"` : ""}>${EARLY_LINKS_SCRIPT}</script>`;
  return html
    .replace(/<html(?=[\s>])/i, `<html ${SAVED_PAGE_ATTRIBUTE}=""`)
    .replace(/<head(?:\s[^>]*)?>/i, (head) => head + script);
}

/** The screens that keep an offline copy, whose pages a launch offline must find. */
export const isKeptOffline = (pathname: string) =>
  /^\/(?:home|bookmarks|notifications|wallet|messages(?:\/\d+)?|dashboard(?:\/(?:payouts|promotions))?)$/.test(
    pathname,
  );

/**
 * Images already seen, readable offline: answered by the network first (a revoked access is never served from
 * here while online, and its copy is deleted), kept within MEDIA_CACHE_MAX_BYTES, least recently used out. Only
 * what the server gave the viewer (200) is kept: a locked item has no URL at all.
 */
export const MEDIA_CACHE = "media";
export const isMediaPath = (pathname: string) => /^\/media\//.test(pathname);
export const MEDIA_CACHE_MAX_BYTES = 100 * 1024 * 1024;
/**
 * Videos watched, for watching again offline: only the 360p rendition of each (a few MB a minute; a 720p or an
 * original would push every image out of the bound), kept whole in MEDIA_CACHE under the same bound and rules as the
 * images. A rendition's address does not say which one it is, so the page names the 360p it plays (KEEP_VIDEO, with
 * its url) and the service worker keeps that one when it comes whole from the server.
 */
export const KEEP_VIDEO = "KEEP_VIDEO";
export const isRenditionPath = (pathname: string) => /^\/media\/(?:stories\/)?renditions\/[^/]+$/.test(pathname);
/** A longer video's 360p is not kept: it would take a quarter of the cache. */
export const VIDEO_CACHE_MAX_BYTES = MEDIA_CACHE_MAX_BYTES / 4;
/** The caches that hold the signed-in person's content: CLEAR_PRIVATE_DATA deletes them all. */
export const PRIVATE_CACHES = [PAGES_CACHE, MEDIA_CACHE] as const;

/**
 * Paths the service worker never keeps in its page cache: the API, media (which has its own cache, above),
 * sockets, development pages, the sandbox card form (a payment step must never be replayed from a stale copy), and
 * data exports (a ZIP of everything a person has, which must not sit in a cache).
 */
export const isNeverCached = (pathname: string) =>
  /^\/(?:api|media|ws|dev|__dev|wallet\/top-up|account\/export)(?:\/|$)/.test(pathname);

/**
 * The address of the page whose single-fetch data `url` is (Remix: /a/b.data for /a/b, /_root.data for /, the
 * routes to load in `_routes`), or null when `url` is no such data, or no path of this site ("//…").
 */
export function pageOfData(url: URL): URL | null {
  if (!url.pathname.endsWith(".data") || url.pathname.startsWith("//")) return null;
  const page = new URL(url.href);
  page.pathname = url.pathname === "/_root.data" ? "/" : url.pathname.slice(0, -".data".length);
  page.searchParams.delete("_routes");
  page.hash = "";
  return page;
}

/**
 * Whether two addresses name the same page: the same path and the same query, however its characters were
 * written (Remix writes a data request's query anew, form-encoded: "a b" as "a+b", "," as "%2C").
 */
export const samePage = (a: URL, b: URL) =>
  a.origin === b.origin &&
  a.pathname === b.pathname &&
  new URLSearchParams(a.search).toString() === new URLSearchParams(b.search).toString();

/**
 * A single-fetch answer that makes Remix load `path` as a document (a redirect with `reload`, as the server encodes
 * one: turbo-stream, status 202), for the service worker to send instead of data it does not have when it keeps the
 * page itself. Remix 2.17.5's format; tests/unit/sw-policy.test.ts decodes it with turbo-stream and the plugin Remix's
 * single fetch decodes redirects with.
 */
export function reloadAsDocument(path: string): Response {
  const body = JSON.stringify([
    ["SingleFetchRedirect", 1],
    { _2: 3, _4: 5, _6: 7, _8: 9, _10: 7 },
    "redirect",
    path,
    "status",
    302,
    "revalidate",
    false,
    "reload",
    true,
    "replace",
  ]);
  return new Response(`${body}\n`, {
    status: 202,
    headers: { "Content-Type": "text/x-script", "X-Remix-Response": "yes" },
  });
}
