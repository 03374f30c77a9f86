import type { EffectsContext } from "../context";
import { isoNow } from "../shared/time";

export interface SettledPost {
  status: "scheduled" | "published";
  user_id: number;
}

/**
 * A `processing` post whose media are all ready becomes `scheduled` if its time is still ahead, else
 * `published` now. The status guard makes the change happen once, whoever calls it first (the upload that
 * completes last, or the composer's request when everything was uploaded already). Answers null when nothing
 * changed.
 */
export function settleProcessingPost(db: D1Database, postId: number): Promise<SettledPost | null> {
  return db
    .prepare(
      `UPDATE posts SET
         status = CASE WHEN scheduled_at IS NOT NULL AND scheduled_at > ?2 THEN 'scheduled' ELSE 'published' END,
         published_at = CASE WHEN scheduled_at IS NOT NULL AND scheduled_at > ?2 THEN NULL ELSE ?2 END
       WHERE id = ?1 AND status = 'processing'
         AND NOT EXISTS (SELECT 1 FROM post_media pm JOIN media m ON m.id = pm.media_id WHERE pm.post_id = ?1 AND m.status <> 'ready')
       RETURNING status, user_id`,
    )
    .bind(postId, isoNow())
    .first<SettledPost>();
}

/**
 * A post waits in `processing` while any of its media is still uploading. When the last upload completes (the
 * media commands call this), it settles (above) and, if published, is announced to the author's followers.
 * Answers the new status, or null when nothing changed.
 */
export async function completeProcessingPost(
  ctx: Pick<EffectsContext, "db" | "publish">,
  postId: number,
): Promise<"scheduled" | "published" | null> {
  const row = await settleProcessingPost(ctx.db, postId);
  if (!row) return null;
  if (row.status === "published") ctx.publish({ type: "PostPublished", authorId: row.user_id });
  return row.status;
}

/**
 * The processing posts waiting for a file that has just become ready (an unfinished file may wait in several):
 * each settles if it was the last one it waited for.
 */
export async function completePostsWaitingFor(
  ctx: Pick<EffectsContext, "db" | "publish">,
  mediaId: number,
): Promise<void> {
  const { results } = await ctx.db
    .prepare(
      "SELECT pm.post_id FROM post_media pm JOIN posts p ON p.id = pm.post_id WHERE pm.media_id = ? AND p.status = 'processing'",
    )
    .bind(mediaId)
    .all<{ post_id: number }>();
  for (const { post_id } of results) await completeProcessingPost(ctx, post_id);
}
