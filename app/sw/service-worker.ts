/// <reference lib="webworker" />
// The service worker, built into build/client/sw.js by scripts/build-sw.mjs (which also fills in
// self.__WB_MANIFEST: every built script, stylesheet, icon, the web manifest and offline.html).
//
// - Precached files are served from the cache (hashed names, so a new build brings new URLs).
// - Page navigations, Remix single-fetch data (*.data) and its route manifest (/__manifest) go to the network
//   first, fall back to the "pages" cache after NETWORK_TIMEOUT_SECONDS or when offline, and finally
//   (navigations only) to /offline.html.
// - /api, /media, /ws and /dev are never touched; nor is anything but a same-origin GET answered 200.
// - "pages" holds signed-in content: CLEAR_PRIVATE_DATA (sent on sign-out, before a sign-in and whenever a page
//   renders signed out; app/lib/offline.ts) deletes it.
import { clientsClaim } from "workbox-core";
import type { WorkboxPlugin } from "workbox-core/types";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";
import { CLEAR_PRIVATE_DATA, NETWORK_TIMEOUT_SECONDS, OFFLINE_PAGE, PAGES_CACHE, PAGES_CACHE_MAX_ENTRIES, isNeverCached } from "./policy";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first service worker takes over the page that installed it, so that page already works offline. Later
// versions wait until the person accepts the update prompt (SKIP_WAITING below).
clientsClaim();

/** Keeps only complete, same-origin 200 answers that were not redirected (a redirect is not the page asked for). */
const onlyGoodAnswers = (kind: "html" | "data"): WorkboxPlugin => ({
  cacheWillUpdate: async ({ response }) => {
    if (response.status !== 200 || response.type !== "basic" || response.redirected) return null;
    if (kind === "html" && !(response.headers.get("Content-Type") ?? "").startsWith("text/html")) return null;
    return response;
  },
});

/** The cache is small: visited pages only, the oldest dropped first. */
const trimPages: WorkboxPlugin = {
  cacheDidUpdate: async () => {
    const cache = await caches.open(PAGES_CACHE);
    const keys = await cache.keys();
    await Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_CACHE_MAX_ENTRIES)).map((key) => cache.delete(key)));
  },
};

const offlineFallback: WorkboxPlugin = {
  handlerDidError: async () => (await matchPrecache(OFFLINE_PAGE)) ?? Response.error(),
};

const ownGet = (url: URL, request: Request) => url.origin === self.location.origin && request.method === "GET" && !isNeverCached(url.pathname);

registerRoute(
  ({ url, request }) => request.mode === "navigate" && ownGet(url, request),
  new NetworkFirst({ cacheName: PAGES_CACHE, networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS, plugins: [onlyGoodAnswers("html"), trimPages, offlineFallback] }),
);

// Client-side navigations: single-fetch data, and the route manifest that lazy route discovery asks for.
registerRoute(
  ({ url, request }) => (url.pathname.endsWith(".data") || url.pathname === "/__manifest") && ownGet(url, request),
  new NetworkFirst({ cacheName: PAGES_CACHE, networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS, plugins: [onlyGoodAnswers("data"), trimPages] }),
);

self.addEventListener("message", (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === "SKIP_WAITING") {
    event.waitUntil(self.skipWaiting());
  } else if (type === CLEAR_PRIVATE_DATA) {
    // Answers on the transferred port, if any, once the cache is gone (app/lib/offline.ts waits for it).
    event.waitUntil(caches.delete(PAGES_CACHE).then((deleted) => event.ports[0]?.postMessage({ type: CLEAR_PRIVATE_DATA, deleted })));
  }
});

// Web push: the payload is JSON {title, body, url}; sending is later work.
self.addEventListener("push", (event) => {
  let payload: { title?: unknown; body?: unknown; url?: unknown } = {};
  try {
    payload = (event.data?.json() as typeof payload | null) ?? {};
  } catch {
    payload = { body: event.data?.text() };
  }
  const title = typeof payload.title === "string" && payload.title ? payload.title : "Fanclub";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof payload.body === "string" ? payload.body : undefined,
      icon: "/icons/icon-192.png",
      data: { url: typeof payload.url === "string" ? payload.url : "/" },
    }),
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
      if (same) return void (await same.focus());
      const any = windows[0];
      if (any) {
        const focused = await any.focus();
        await focused.navigate(target);
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
