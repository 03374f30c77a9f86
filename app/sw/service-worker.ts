/// <reference lib="webworker" />
// The service worker, built into build/client/sw.js by scripts/build-sw.mjs (which also fills in
// self.__WB_MANIFEST: every built script, stylesheet, icon, the web manifest and offline.html).
//
// - Precached files are served from the cache (hashed names, so a new build brings new URLs).
// - Page navigations and Remix single-fetch data (*.data) go to the network first, fall back to the "pages" cache
//   after NETWORK_TIMEOUT_SECONDS or when offline, and finally (navigations only) to /offline.html. A page served
//   from the cache is marked as such and holds a link tapped before its hydration until then (EARLY_LINKS_SCRIPT);
//   a screen's data not kept, while its page is, is answered with a single-fetch redirect that loads the kept page.
//   Remix's route manifest (/__manifest) falls back to the build's whole route table (precached).
// - Images under /media go to the network first and fall back to the "media" cache (bounded, least recently used
//   out; app/sw/media-cache.ts). So do the 360p renditions of videos the page played (KEEP_VIDEO): kept whole when
//   one comes whole, answered offline by the range the video element asks for.
// - /api, /ws and /dev are never touched; nor is anything but a same-origin GET answered 200.
// - "pages" and "media" hold signed-in content: CLEAR_PRIVATE_DATA (sent on sign-out, before a sign-in and
//   whenever a page renders signed out; app/lib/offline.ts) deletes them.
// - KEEP_PAGE stores a page not kept yet (the first visit, before this worker controlled it; client-side
//   navigations), so a launch offline finds it.
import { clientsClaim } from "workbox-core";
import type { WorkboxPlugin } from "workbox-core/types";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { NetworkFirst, NetworkOnly } from "workbox-strategies";
import { forgetMedia, keepRendition, keptRendition, mediaCachePlugin, wantVideo } from "~/sw/media-cache";
import {
  CLEAR_PRIVATE_DATA,
  isKeptOffline,
  isMediaPath,
  isNeverCached,
  isRenditionPath,
  KEEP_PAGE,
  KEEP_VIDEO,
  MEDIA_CACHE,
  NETWORK_TIMEOUT_SECONDS,
  OFFLINE_PAGE,
  PAGES_CACHE,
  markSavedPage,
  pageOfData,
  PAGES_CACHE_MAX_ENTRIES,
  PRIVATE_CACHES,
  reloadAsDocument,
  samePage,
} from "~/sw/policy";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

/** Filled in by scripts/build-sw.mjs, which expects this name exactly once. */
const PRECACHED = self.__WB_MANIFEST;
precacheAndRoute(PRECACHED);
cleanupOutdatedCaches();
// The first service worker takes over the page that installed it, so that page already works offline. Later
// versions wait until the person accepts the update prompt (SKIP_WAITING below).
clientsClaim();

/**
 * Sign-out and a sign-in as someone else clear the private caches (CLEAR_PRIVATE_DATA); an answer still on its way
 * then must not fill them again with the previous person's page. Each clearing starts a new generation, and an
 * answer is kept only if its request started in the current one.
 */
let generation = 0;
const sameGeneration: WorkboxPlugin = {
  requestWillFetch: async ({ request, state }) => {
    if (state) state.generation = generation;
    return request;
  },
  cacheWillUpdate: async ({ response, state }) => (state?.generation === generation ? response : null),
};

/** Keeps only complete, same-origin 200 answers that were not redirected (a redirect is not the page asked for). */
const onlyGoodAnswers = (kind: "html" | "data"): WorkboxPlugin => ({
  cacheWillUpdate: async ({ response }) => {
    if (response.status !== 200 || response.type !== "basic" || response.redirected) return null;
    if (kind === "html" && !(response.headers.get("Content-Type") ?? "").startsWith("text/html")) return null;
    return response;
  },
});

/** The cache is small: visited pages only, the oldest dropped first. */
async function trimPageCache() {
  const cache = await caches.open(PAGES_CACHE);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_CACHE_MAX_ENTRIES)).map((key) => cache.delete(key)));
}
const trimPages: WorkboxPlugin = { cacheDidUpdate: trimPageCache };

const offlineFallback: WorkboxPlugin = {
  handlerDidError: async () => (await matchPrecache(OFFLINE_PAGE)) ?? Response.error(),
};

const ownGet = (url: URL, request: Request) =>
  url.origin === self.location.origin && request.method === "GET" && !isNeverCached(url.pathname);

/**
 * A page served from the cache says so on its <html> (SAVED_PAGE_ATTRIBUTE, read by app/lib/offline-copies.ts), and
 * holds a link tapped before its hydration until then (EARLY_LINKS_SCRIPT).
 */
const markSavedPages: WorkboxPlugin = {
  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
    if (!cachedResponse) return null;
    const { status, statusText, headers } = cachedResponse;
    return new Response(markSavedPage(await cachedResponse.text(), headers.get("Content-Security-Policy")), {
      status,
      statusText,
      headers,
    });
  },
};

registerRoute(
  ({ url, request }) => request.mode === "navigate" && ownGet(url, request),
  new NetworkFirst({
    cacheName: PAGES_CACHE,
    networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
    plugins: [sameGeneration, onlyGoodAnswers("html"), trimPages, markSavedPages, offlineFallback],
  }),
);

// The data of a screen with an offline copy always comes from the server: offline, its client loader shows the
// copy (newer than anything kept here) and says it is one.
const dataPath = (url: URL) => url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/");
registerRoute(
  ({ url, request }) => url.pathname.endsWith(".data") && ownGet(url, request) && isKeptOffline(dataPath(url)),
  new NetworkOnly(),
);

/**
 * A client-side navigation offline to a screen whose data was never kept, while its page was (its address loaded
 * as a document before: a link tapped before the hydration, a notification, a bookmark): the kept page is better
 * than "not saved on this device". The answer makes Remix load the address as a document, which the navigation
 * route above serves from the cache. Not when the asking window is at that address already: the data of the page
 * shown (a revalidation, after a form sent offline) fails as it would, rather than reloading the page, or a kept
 * page whose data fails loading itself again and again. A window's address is its current one in Chromium (which
 * follows the app's own navigations) and the one it was loaded at elsewhere; either way this errs on the side of
 * "not saved": Back or Forward to such a screen is not bridged in Chromium (the address has changed before the
 * data is asked for), nor in other browsers a link to the address the window was loaded at.
 */
const keptPageInstead: WorkboxPlugin = {
  handlerDidError: async ({ request, event }) => {
    const page = pageOfData(new URL(request.url));
    if (!page) return undefined;
    const keys = await (await caches.open(PAGES_CACHE)).keys(page.href, { ignoreSearch: true });
    const kept = keys.map((key) => new URL(key.url)).find((url) => samePage(url, page));
    if (!kept) return undefined;
    const clientId = (event as FetchEvent | undefined)?.clientId;
    const client = clientId ? await self.clients.get(clientId) : undefined;
    if (!client || samePage(new URL(client.url), kept)) return undefined;
    return reloadAsDocument(kept.pathname + kept.search);
  },
};

// Client-side navigations: single-fetch data.
registerRoute(
  ({ url, request }) => url.pathname.endsWith(".data") && ownGet(url, request),
  new NetworkFirst({
    cacheName: PAGES_CACHE,
    networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
    plugins: [sameGeneration, onlyGoodAnswers("data"), trimPages, keptPageInstead],
  }),
);

/**
 * The route manifest that Remix's lazy route discovery asks for (/__manifest?p=…&version=…): a page carries only
 * its own routes and learns the others from the server. Offline, the answer is the build's whole route table,
 * read from its precached manifest file (window.__remixManifest = {…}), so a page opened offline and the screens
 * it links to still know their routes. Public and the same for everyone: nothing is kept in "pages".
 */
const ROUTE_MANIFEST_FILE = PRECACHED.map((entry) => (typeof entry === "string" ? entry : entry.url)).find((url) =>
  /^\/assets\/manifest-[\w-]+\.js$/.test(url),
);
async function wholeRouteTable(): Promise<Response> {
  const file = ROUTE_MANIFEST_FILE ? await matchPrecache(ROUTE_MANIFEST_FILE) : undefined;
  if (!file) return Response.error();
  const source = await file.text();
  const { routes } = JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1)) as {
    routes: Record<string, unknown>;
  };
  return new Response(JSON.stringify(routes), { headers: { "Content-Type": "application/json" } });
}
registerRoute(
  ({ url, request }) => url.pathname === "/__manifest" && ownGet(url, request),
  new NetworkOnly({ networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS, plugins: [{ handlerDidError: wholeRouteTable }] }),
);

// Images seen, for reading offline: only whole answers (200) of image requests, never a range of a video.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    request.method === "GET" &&
    isMediaPath(url.pathname) &&
    request.destination === "image",
  // No timeout: online, an image is always asked of the server (a revoked access is never served from here).
  new NetworkFirst({ cacheName: MEDIA_CACHE, plugins: [sameGeneration, mediaCachePlugin] }),
);

// Videos' renditions: online always from the server (it checks the viewer's access each time); a 360p the page
// played is kept when it comes whole; offline, a kept one answers the range asked for.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && request.method === "GET" && isRenditionPath(url.pathname),
  async ({ request, event }) => {
    const startedIn = generation;
    let response: Response;
    try {
      response = await fetch(request);
    } catch (error) {
      const kept = await keptRendition(request);
      if (kept) return kept;
      throw error;
    }
    return keepRendition(
      request.url,
      response,
      (promise) => event.waitUntil(promise),
      () => startedIn === generation,
    );
  },
);

/** Stores the page at `href` unless one is kept already (KEEP_PAGE). */
async function keepPage(href: string) {
  const url = new URL(href, self.location.origin);
  if (url.origin !== self.location.origin || !isKeptOffline(url.pathname)) return;
  const startedIn = generation;
  if (await (await caches.open(PAGES_CACHE)).match(url.href)) return;
  const response = await fetch(url.href, { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (
    response.status !== 200 ||
    response.redirected ||
    !(response.headers.get("Content-Type") ?? "").startsWith("text/html")
  )
    return;
  if (startedIn !== generation) return;
  await (await caches.open(PAGES_CACHE)).put(url.href, response);
  await trimPageCache();
}

self.addEventListener("message", (event) => {
  const data = event.data as { type?: unknown; url?: unknown } | null;
  if (data?.type === "SKIP_WAITING") {
    event.waitUntil(self.skipWaiting());
  } else if (data?.type === CLEAR_PRIVATE_DATA) {
    generation++;
    // Answers on the transferred port, if any, once the caches are gone (app/lib/offline.ts waits for it).
    event.waitUntil(
      Promise.all([...PRIVATE_CACHES.map((name) => caches.delete(name)), forgetMedia()]).then(([deleted]) =>
        event.ports[0]?.postMessage({ type: CLEAR_PRIVATE_DATA, deleted }),
      ),
    );
  } else if (data?.type === KEEP_VIDEO && typeof data.url === "string") {
    const url = new URL(data.url, self.location.origin);
    if (url.origin === self.location.origin && isRenditionPath(url.pathname)) event.waitUntil(wantVideo(url.href));
  } else if (data?.type === KEEP_PAGE && typeof data.url === "string") {
    event.waitUntil(keepPage(data.url).catch((error: unknown) => console.warn("KEEP_PAGE failed", error)));
  }
});

// Background Sync (app/lib/outbox.ts): the network is back; open pages send their outbox (they hold the session).
self.addEventListener("sync", (event) => {
  const sync = event as Event & { tag: string; waitUntil(promise: Promise<unknown>): void };
  if (sync.tag !== "outbox") return;
  sync.waitUntil(
    self.clients
      .matchAll({ type: "window" })
      .then((windows) => windows.forEach((window) => window.postMessage({ type: "FLUSH_OUTBOX" }))),
  );
});

// Web push (worker/push): the payload is JSON {title, body, url, tag, badge}, already written in the device's
// language and free of private content. The badge is the unread count, where the Badging API exists.
self.addEventListener("push", (event) => {
  let payload: { title?: unknown; body?: unknown; url?: unknown; tag?: unknown; badge?: unknown } = {};
  try {
    payload = (event.data?.json() as typeof payload | null) ?? {};
  } catch {
    payload = { body: event.data?.text() };
  }
  const title = typeof payload.title === "string" && payload.title ? payload.title : "Fanclub";
  const navigatorWithBadge = self.navigator as WorkerNavigator & { setAppBadge?: (count: number) => Promise<void> };
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(title, {
        body: typeof payload.body === "string" ? payload.body : undefined,
        icon: "/icons/icon-192.png",
        tag: typeof payload.tag === "string" ? payload.tag : undefined,
        data: { url: typeof payload.url === "string" ? payload.url : "/" },
      }),
      typeof payload.badge === "number" && navigatorWithBadge.setAppBadge
        ? navigatorWithBadge.setAppBadge(payload.badge).catch(() => undefined)
        : undefined,
    ]),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const asked = new URL((event.notification.data as { url?: string } | null)?.url ?? "/", self.location.origin);
  // Only our own pages: a payload cannot send the person elsewhere.
  const target = asked.origin === self.location.origin ? asked.href : new URL("/", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = windows.find((client) => client.url === target);
      if (same) return void (await same.focus().catch(() => undefined));
      // An open window goes to the page first; focusing it may be refused (it needs the click's activation).
      // A window this worker does not control cannot be navigated: then a new one opens.
      const open = windows[0];
      if (open) {
        try {
          const moved = await open.navigate(target);
          await (moved ?? open).focus().catch(() => undefined);
          return;
        } catch {
          // fall through to a new window
        }
      }
      await self.clients.openWindow(target);
    })(),
  );
});
