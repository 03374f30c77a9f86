import type { Context } from "hono";
import type { AppEnv } from "./types";

/**
 * /media/{key}. For now only public objects (avatars and covers, keys under public/) exist; locked post media
 * will be served here after an entitlement check, never from a public URL.
 */
export async function serveMedia(c: Context<AppEnv>) {
  const key = decodeURIComponent(c.req.path.slice("/media/".length));
  if (!/^public\/[a-z0-9/_-]+\.(png|jpe?g|webp)$/i.test(key)) return c.notFound();
  const object = await c.env.MEDIA.get(key);
  if (!object) return c.notFound();
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("ETag", object.httpEtag);
  headers.set("Cache-Control", "public, max-age=86400");
  return new Response(object.body, { headers });
}
