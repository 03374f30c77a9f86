import type { Context } from "hono";
import { parseByteRange } from "../domain/media/byte-range";
import { canFetchPrivateMedia } from "../domain/media/private-access";
import { canFetchPostMedia } from "../domain/posts/media-access";
import type { AppEnv } from "./types";

/** Key shapes the upload commands generate (worker/domain/media/uploads.ts); anything else does not exist. */
const PUBLIC_KEY = /^public\/[a-z0-9/_-]+\.(png|jpe?g|webp|gif)$/i;
const POST_KEY = /^(posts\/[a-f0-9]{32}\.(png|jpe?g|webp|gif|mp4|webm|mov)|(posters|previews)\/[a-f0-9]{32}\.(jpe?g|webp|png|gif))$/i;
const PRIVATE_KEY = /^private\/[a-f0-9]{32}\.(png|jpe?g|webp|gif)$/;

/** public/: anyone, any cache. Post media: per viewer, the browser's cache only. ID documents: never stored. */
const CACHE_CONTROL = {
  public: "public, max-age=86400",
  post: "private, max-age=3600",
  private: "private, no-store",
} as const;

async function accessOf(c: Context<AppEnv>, key: string): Promise<keyof typeof CACHE_CONTROL | null> {
  const user = c.var.session?.user ?? null;
  if (PUBLIC_KEY.test(key)) return "public";
  if (POST_KEY.test(key)) return (await canFetchPostMedia(c.env.DB, key, user?.id ?? null)) ? "post" : null;
  if (PRIVATE_KEY.test(key)) return (await canFetchPrivateMedia(c.env.DB, key, user)) ? "private" : null;
  return null;
}

/**
 * /media/{key}: the entitlement is checked on every request (a URL copied out of a page is worth nothing to
 * someone else), then the object streams from R2 with ETag revalidation and single byte ranges (video seeking).
 * A refusal looks exactly like a missing object: 404.
 */
export async function serveMedia(c: Context<AppEnv>) {
  const key = c.req.path.slice("/media/".length);
  const access = await accessOf(c, key);
  const stored = access ? await c.env.MEDIA.head(key) : null;
  if (!access || !stored) return c.notFound();

  const headers = new Headers();
  stored.writeHttpMetadata(headers);
  headers.set("ETag", stored.httpEtag);
  headers.set("Cache-Control", CACHE_CONTROL[access]);
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
