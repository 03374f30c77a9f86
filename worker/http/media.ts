import type { Context } from "hono";
import { parseByteRange } from "../domain/media/byte-range";
import { mediaAccessOf } from "../domain/policies/media";
import { streamHlsUrl } from "../domain/media/stream/playback";
import { config } from "../env";
import type { AppEnv } from "./types";

/**
 * /media/{key}: the key's kind picks its policy (worker/domain/policies/media.ts), which checks the entitlement
 * on every request (a URL copied out of a page is worth nothing to someone else), then the object streams from R2 with ETag revalidation and single byte ranges (video seeking).
 * A refusal looks exactly like a missing object: 404.
 */
export async function serveMedia(c: Context<AppEnv>) {
  const key = c.req.path.slice("/media/".length);
  const cacheControl = await mediaAccessOf(c.env.DB, c.get("session")?.user ?? null, key);
  const streamUid = STREAM_KEY.exec(key)?.[1];
  if (streamUid !== undefined) return cacheControl ? toStreamManifest(c, streamUid) : c.notFound();
  const stored = cacheControl ? await c.env.MEDIA.head(key) : null;
  if (!cacheControl || !stored) return c.notFound();

  const headers = new Headers();
  stored.writeHttpMetadata(headers);
  headers.set("ETag", stored.httpEtag);
  headers.set("Cache-Control", cacheControl);
  headers.set("Accept-Ranges", "bytes");
  if (c.req.header("If-None-Match") === stored.httpEtag) return new Response(null, { status: 304, headers });

  const range = parseByteRange(c.req.header("Range"), stored.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${stored.size}`);
    return new Response(null, { status: 416, headers });
  }
  headers.set("Content-Length", String(range ? range.length : stored.size));
  if (range) headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${stored.size}`);
  const status = range ? 206 : 200;
  if (c.req.method === "HEAD") return new Response(null, { status, headers });

  const object = await c.env.MEDIA.get(key, range ? { range } : {});
  if (!object) return c.notFound();
  return new Response(object.body, { status, headers });
}

/** A video kept by Cloudflare Stream (policies/media.ts "stream" and "story-stream" keys). */
const STREAM_KEY = /^(?:stories\/)?stream\/([a-f0-9]{32})$/;

/**
 * A viewer the policy let in goes on to the manifest signed for them for a few hours; the redirect itself is never
 * kept by a cache, so the next play asks again and a viewer whose access ended gets a 404.
 */
async function toStreamManifest(c: Context<AppEnv>, streamUid: string) {
  const url = await streamHlsUrl(config(c.env), streamUid);
  if (!url) return c.notFound();
  return new Response(null, { status: 302, headers: { Location: url, "Cache-Control": "private, no-store" } });
}
