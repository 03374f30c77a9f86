import { AppError, fieldError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { getPost } from "./get-post";
import { POST_EMPTY, type UpdatePostInput } from "@shared/contracts/posts";
import { ALREADY_PUBLISHED, POST_NOT_FOUND } from "./post-rules";
import type { PostView } from "./present-posts";

/**
 * The author edits their post: text, audience and price at any time, the publication time until it is
 * published. Editing a published post marks it edited. Someone else's post is simply not found.
 */
export async function updatePost(
  db: D1Database,
  authorId: number,
  postId: number,
  input: UpdatePostInput,
): Promise<PostView> {
  const current = await db
    .prepare(
      "SELECT p.status, p.text, (SELECT COUNT(*) FROM post_media pm WHERE pm.post_id = p.id) AS media_count FROM posts p WHERE p.id = ? AND p.user_id = ?",
    )
    .bind(postId, authorId)
    .first<{ status: string; text: string; media_count: number }>();
  if (!current) throw new AppError("not_found", POST_NOT_FOUND);
  if (input.scheduledAt !== undefined && current.status === "published")
    throw fieldError("scheduledAt", ALREADY_PUBLISHED);
  if ((input.text ?? current.text).length === 0 && current.media_count === 0) throw fieldError("text", POST_EMPTY);

  const changesContent = input.text !== undefined || input.audience !== undefined || input.priceCents !== undefined;
  if (changesContent || input.scheduledAt !== undefined) {
    // The status guard: a cron run may publish the post between the read above and this write.
    const updated = await db
      .prepare(
        `UPDATE posts SET
           text = coalesce(?3, text),
           audience = coalesce(?4, audience),
           price_cents = coalesce(?5, price_cents),
           scheduled_at = coalesce(?6, scheduled_at),
           edited_at = CASE WHEN status = 'published' AND ?7 THEN ?8 ELSE edited_at END
         WHERE id = ?1 AND user_id = ?2 AND (?6 IS NULL OR status <> 'published')
         RETURNING id`,
      )
      .bind(
        postId,
        authorId,
        input.text ?? null,
        input.audience ?? null,
        input.priceCents ?? null,
        input.scheduledAt ?? null,
        changesContent ? 1 : 0,
        isoNow(),
      )
      .first();
    if (!updated) throw fieldError("scheduledAt", ALREADY_PUBLISHED);
  }
  return (await getPost(db, postId, authorId))!;
}
