import type { Env } from "../../../worker/env";

/**
 * For `npm run bench` only (POST /__bench/media-files): the big seed (tests/bench/seed.sql) gives every
 * fourth post an image row but stores no file, so a page showing them would log 404s and Lighthouse would read
 * them as the app's errors. This stores the posted image (and its blurred preview) under the keys of the newest
 * `limit` media rows of published posts: the first pages of any timeline over that seed; with `w640`, also that
 * copy 640 pixels wide, as the uploader's browser makes it of a wider photo (app/lib/uploads.ts), under a key it
 * gives the row.
 * Body: {image, preview, w640?} (base64 PNG), `?limit=` at most 1,000. Answers {stored} (objects written).
 */
export async function storeBenchMediaFiles(env: Env, request: Request): Promise<Response> {
  const limit = Math.min(1000, Math.max(1, Number(new URL(request.url).searchParams.get("limit")) || 1));
  const { image, preview, w640 } = await request.json<{ image: string; preview: string; w640?: string }>();
  const bytes = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const [imageBytes, previewBytes, w640Bytes] = [bytes(image), bytes(preview), w640 ? bytes(w640) : null];
  const { results } = await env.DB.prepare(
    `SELECT m.id, m.object_key, m.preview_key FROM posts p JOIN post_media pm ON pm.post_id = p.id JOIN media m ON m.id = pm.media_id
     WHERE p.status = 'published' ORDER BY p.published_at DESC LIMIT ?`,
  )
    .bind(limit)
    .all<{ id: number; object_key: string; preview_key: string | null }>();
  const httpMetadata = { contentType: "image/png" };
  let stored = 0;
  for (const row of results) {
    await env.MEDIA.put(row.object_key, imageBytes, { httpMetadata });
    stored++;
    if (row.preview_key) {
      await env.MEDIA.put(row.preview_key, previewBytes, { httpMetadata });
      stored++;
    }
  }
  if (w640Bytes) {
    const keys = results.map((row) => ({ id: row.id, key: `scaled/640/${row.id.toString(16).padStart(32, "0")}.png` }));
    for (const { key } of keys) await env.MEDIA.put(key, w640Bytes, { httpMetadata });
    stored += keys.length;
    if (keys.length > 0)
      await env.DB.batch(
        keys.map(({ id, key }) => env.DB.prepare("UPDATE media SET w640_key = ? WHERE id = ?").bind(key, id)),
      );
  }
  return Response.json({ stored });
}
