import type { Env } from "../../env";
import { isoNow } from "../shared/time";
import { announcePost } from "./announce-post";

/**
 * A post waits in `processing` while any of its media is still uploading. When the last upload completes (the
 * media commands call this), it becomes `scheduled` if its time is still ahead, else `published` now. The
 * status guard makes the change happen once, whoever calls it first. Answers the new status, or null when
 * nothing changed.
 */
export async function completeProcessingPost(env: Env, postId: number): Promise<"scheduled" | "published" | null> {
  const now = isoNow();
  const row = await env.DB.prepare(
    `UPDATE posts SET
       status = CASE WHEN scheduled_at IS NOT NULL AND scheduled_at > ?2 THEN 'scheduled' ELSE 'published' END,
       published_at = CASE WHEN scheduled_at IS NOT NULL AND scheduled_at > ?2 THEN NULL ELSE ?2 END
     WHERE id = ?1 AND status = 'processing'
       AND NOT EXISTS (SELECT 1 FROM media WHERE post_id = ?1 AND status <> 'ready')
     RETURNING status, user_id`,
  )
    .bind(postId, now)
    .first<{ status: "scheduled" | "published"; user_id: number }>();
  if (!row) return null;
  if (row.status === "published") await announcePost(env, row.user_id);
  return row.status;
}
