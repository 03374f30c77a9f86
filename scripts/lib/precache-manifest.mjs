// The service worker's precache manifest (scripts/build-sw.mjs): url + revision (a content hash; null for the
// content-hashed files under /assets/) for every script, stylesheet, icon, the web manifest and offline.html of the
// built client; never sw.js itself, nor anything under /media or /api, nor the scripts NOT_PRECACHED names.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

const PRECACHED = /\.(?:js|mjs|css|webmanifest|png|svg|ico|webp|woff2|html)$/;
/**
 * Scripts few people run, only online, fetched when used rather than by every installing fan (about 2 MB): the
 * creator's video converter (mediabunny and its AAC encoder, app/lib/video-renditions.ts) and hls.js (Cloudflare
 * Stream videos in a browser without HLS of its own).
 */
const NOT_PRECACHED = /^\/assets\/(?:video-renditions|mediabunny-aac-encoder|hls)-[A-Za-z0-9_-]{8,}\.js$/;

function* files(directory) {
  for (const name of readdirSync(directory)) {
    if (name.startsWith(".")) continue; // .vite/ and the like
    const path = join(directory, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/** The precache manifest of the built client in `clientDirectory` (build/client). */
export function precacheManifest(clientDirectory) {
  const entries = [];
  for (const path of files(clientDirectory)) {
    const url = "/" + relative(clientDirectory, path).split(sep).join("/");
    if (url === "/sw.js" || /^\/(?:media|api)\//.test(url) || !PRECACHED.test(url) || NOT_PRECACHED.test(url)) continue;
    // Vite names what it emits under /assets/ by content hash (name-HASH.ext): the URL is the revision.
    const hashedName = url.startsWith("/assets/") && /-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(url);
    const revision = hashedName ? null : createHash("sha256").update(readFileSync(path)).digest("hex").slice(0, 16);
    entries.push({ url, revision });
  }
  return entries.sort((a, b) => a.url.localeCompare(b.url));
}
