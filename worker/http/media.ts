import type { Context } from "hono";
import { canFetchPostMedia } from "../domain/posts/media-access";
import type { AppEnv } from "./types";

const PUBLIC_KEY = /^public\/[a-z0-9/_-]+\.(png|jpe?g|webp)$/i;
const POST_KEY = /^(posts\/[a-f0-9]{32}\.(png|jpe?g|webp|mp4|webm|mov)|(posters|previews)\/[a-f0-9]{32}\.(jpe?g|webp|png))$/i;

/**
 * /media/{key}. Avatars and covers (keys under public/) are public; post media is checked against the viewer
 * on every request and never cached by shared caches. Anything else does not exist.
 */
export async function serveMedia(c: Context<AppEnv>) {
  const key = c.req.path.slice("/media/".length);
  const isPublic = PUBLIC_KEY.test(key);
  if (!isPublic && !(POST_KEY.test(key) && (await canFetchPostMedia(c.env.DB, key, c.var.session?.user.id ?? null)))) {
    return c.notFound();
  }
  const object = await c.env.MEDIA.get(key);
  if (!object) return c.notFound();
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("ETag", object.httpEtag);
  headers.set("Cache-Control", isPublic ? "public, max-age=86400" : "private, max-age=3600");
  return new Response(object.body, { headers });
}
