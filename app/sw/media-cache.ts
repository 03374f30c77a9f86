/// <reference lib="webworker" />
// The service worker's cache of images already seen and of the 360p renditions of videos watched (MEDIA_CACHE):
// bounded by MEDIA_CACHE_MAX_BYTES, least recently used out. Workbox's expiration counts entries, not bytes; photos
// vary from a few KB (previews) to a few MB and videos more, so the sizes and last uses are kept in the worker's own
// IndexedDB store.
import type { WorkboxPlugin } from "workbox-core/types";
import { clear, createStore, get, set } from "idb-keyval";
import { answerRange, wholeFileSize } from "~/sw/cached-range";
import { MEDIA_CACHE, MEDIA_CACHE_MAX_BYTES, VIDEO_CACHE_MAX_BYTES } from "~/sw/policy";

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
  fetchDidSucceed: async ({ request, response }) => {
    await forgetRefused(request.url, response);
    return response;
  },
};

/** Online, a file the viewer may no longer see (signed out, a subscription ended, a post deleted) leaves the cache. */
async function forgetRefused(url: string, response: Response) {
  if (response.status !== 401 && response.status !== 403 && response.status !== 404) return;
  await (await caches.open(MEDIA_CACHE)).delete(url);
  await edit((index) => void delete index[url]);
}

/** The 360p renditions the page has played (KEEP_VIDEO), the newest last: only these are kept. */
const WANTED = "videos";
const WANTED_MAX = 500;

export function wantVideo(url: string): Promise<void> {
  const next = queue.then(async () => {
    const wanted = ((await get<string[]>(WANTED, store)) ?? []).filter((item) => item !== url);
    await set(WANTED, [...wanted, url].slice(-WANTED_MAX), store);
  });
  queue = next.catch((error: unknown) => console.warn("media cache wanted videos", error));
  return next;
}

/** The wanted videos, once the changes queued before are written (a KEEP_VIDEO just ahead of its video's bytes). */
async function wantedVideos(): Promise<string[]> {
  await queue;
  return (await get<string[]>(WANTED, store)) ?? [];
}

/**
 * A rendition from the network, handed on to the page; if it is a 360p the page played and it comes whole (a video
 * element's first request, `bytes=0-`, answered from the first byte to the last), a copy goes into the cache while
 * the page reads its own (no second download), kept once all of it arrived and if `stillCurrent()` (no
 * CLEAR_PRIVATE_DATA meanwhile).
 */
export async function keepRendition(
  url: string,
  response: Response,
  waitUntil: (promise: Promise<unknown>) => void,
  stillCurrent: () => boolean,
): Promise<Response> {
  await forgetRefused(url, response);
  const size = wholeFileSize(response);
  if (!response.body || response.type !== "basic" || response.redirected || size === null) return response;
  if (size > VIDEO_CACHE_MAX_BYTES || !(await wantedVideos()).includes(url)) return response;
  const cache = await caches.open(MEDIA_CACHE);
  if (await cache.match(url)) return response;
  const [forPage, forCache] = response.body.tee();
  const headers = new Headers(response.headers);
  headers.delete("Content-Range");
  headers.set("Content-Length", String(size));
  waitUntil(
    new Response(forCache)
      .blob()
      .then(async (file) => {
        if (file.size !== size || !stillCurrent()) return;
        await cache.put(url, new Response(file, { status: 200, headers }));
        await edit(async (index) => {
          index[url] = { bytes: size, usedAt: Date.now() };
          await evict(index);
        });
      })
      .catch((error: unknown) => console.warn("keeping a video", error)),
  );
  return new Response(forPage, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** A kept rendition for a request made offline: the range it asks for, or null when none is kept. */
export async function keptRendition(request: Request): Promise<Response | null> {
  const cached = await (await caches.open(MEDIA_CACHE)).match(request.url);
  if (!cached) return null;
  void edit((index) => void (index[request.url] && (index[request.url]!.usedAt = Date.now())));
  return answerRange(cached, request.headers.get("Range"));
}

/** Forgets the index and the wanted videos with the cache (CLEAR_PRIVATE_DATA). */
export const forgetMedia = () => clear(store);
