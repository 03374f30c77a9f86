/// <reference lib="webworker" />
// The service worker's cache of images already seen (MEDIA_CACHE): bounded by MEDIA_CACHE_MAX_BYTES, least
// recently used out. Workbox's expiration counts entries, not bytes; photos vary from a few KB (previews) to a few
// MB, so the sizes and last uses are kept in the worker's own IndexedDB store.
import type { WorkboxPlugin } from "workbox-core/types";
import { createStore, del, get, set } from "idb-keyval";
import { MEDIA_CACHE, MEDIA_CACHE_MAX_BYTES } from "~/sw/policy";

interface Entry {
  bytes: number;
  usedAt: number;
}
type Index = Record<string, Entry>;

const store = createStore("fanclub-sw", "media-index");
const INDEX = "index";

/** Changes to the index run one after another: two images finishing together must not lose an entry. */
let queue: Promise<unknown> = Promise.resolve();
function edit(change: (index: Index) => Promise<void> | void): Promise<void> {
  const next = queue.then(async () => {
    const index = (await get<Index>(INDEX, store)) ?? {};
    await change(index);
    await set(INDEX, index, store);
  });
  queue = next.catch((error: unknown) => console.warn("media cache index", error));
  return next;
}

/** Drops the least recently used images until the cache fits its budget. */
async function evict(index: Index) {
  let total = Object.values(index).reduce((sum, entry) => sum + entry.bytes, 0);
  if (total <= MEDIA_CACHE_MAX_BYTES) return;
  const cache = await caches.open(MEDIA_CACHE);
  for (const [url, entry] of Object.entries(index).sort(([, a], [, b]) => a.usedAt - b.usedAt)) {
    if (total <= MEDIA_CACHE_MAX_BYTES) break;
    await cache.delete(url);
    delete index[url];
    total -= entry.bytes;
  }
}

export const mediaCachePlugin: WorkboxPlugin = {
  // Only whole images the server gave: no error, no partial answer, no redirect.
  cacheWillUpdate: async ({ response }) =>
    response.status === 200 &&
    response.type === "basic" &&
    !response.redirected &&
    (response.headers.get("Content-Type") ?? "").startsWith("image/")
      ? response
      : null,
  cacheDidUpdate: async ({ request, newResponse }) => {
    const bytes = Number(newResponse.headers.get("Content-Length")) || (await newResponse.clone().blob()).size;
    await edit(async (index) => {
      index[request.url] = { bytes, usedAt: Date.now() };
      await evict(index);
    });
  },
  cachedResponseWillBeUsed: async ({ request, cachedResponse }) => {
    if (cachedResponse) void edit((index) => void (index[request.url] && (index[request.url]!.usedAt = Date.now())));
    return cachedResponse ?? null;
  },
  // Online, an image the viewer may no longer see (signed out, a subscription ended, a post deleted) leaves the cache.
  fetchDidSucceed: async ({ request, response }) => {
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      await (await caches.open(MEDIA_CACHE)).delete(request.url);
      await edit((index) => void delete index[request.url]);
    }
    return response;
  },
};

/** Forgets the index with the cache (CLEAR_PRIVATE_DATA). */
export const forgetMedia = () => del(INDEX, store);
