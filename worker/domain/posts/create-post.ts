import type { UserRow } from "../accounts/users";
import type { EffectsContext } from "../context";
import { AppError, fieldError } from "../shared/errors";
import { IN_POSTS_PREFIX_SQL } from "../media/uploads";
import { isoNow } from "../shared/time";
import { settleProcessingPost } from "./complete-processing";
import { getPost } from "./get-post";
import type { CreatePostInput } from "@shared/contracts/posts";
import { MEDIA_NOT_ATTACHABLE, ONLY_CREATORS_POST } from "./post-rules";
import type { PostView } from "./present-posts";

export const canPost = (user: Pick<UserRow, "role">) => user.role === "creator" || user.role === "admin";

/**
 * The composer's post. Without media it is published now (or scheduled) in one statement. With media it is
 * inserted as `processing`, the media are claimed (owned by the author, purpose post, not attached elsewhere,
 * not failed), and it settles at once when every file is already uploaded; otherwise the upload that completes
 * last settles it (completeProcessingPost). A published post is announced (PostPublished) once written.
 */
export async function createPost(
  ctx: Pick<EffectsContext, "db" | "publish">,
  author: Pick<UserRow, "id" | "role">,
  input: CreatePostInput,
): Promise<PostView> {
  if (!canPost(author)) throw new AppError("forbidden", ONLY_CREATORS_POST);
  const { db } = ctx;
  if (input.mediaIds.length > 0) await assertAttachable(db, author.id, input.mediaIds);

  const at = isoNow();
  const initialStatus = input.mediaIds.length > 0 ? "processing" : input.scheduledAt ? "scheduled" : "published";
  const inserted = await db
    .prepare(
      `INSERT INTO posts (user_id, text, audience, price_cents, status, scheduled_at, published_at, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, CASE WHEN ?5 = 'published' THEN ?7 END, ?7) RETURNING id`,
    )
    .bind(author.id, input.text, input.audience, input.priceCents, initialStatus, input.scheduledAt ?? null, at)
    .first<{ id: number }>();
  const postId = inserted!.id;

  let published = initialStatus === "published";
  if (input.mediaIds.length > 0) {
    await claimMedia(db, author.id, postId, input.mediaIds);
    published = (await settleProcessingPost(db, postId))?.status === "published";
  }
  if (published) ctx.publish({ type: "PostPublished", authorId: author.id });
  return (await getPost(db, postId, author.id))!;
}

/** The friendly check before writing: each id names an upload of this author that a post may take. */
async function assertAttachable(db: D1Database, authorId: number, mediaIds: number[]) {
  const row = await db
    .prepare(
      `SELECT COUNT(*) AS n FROM media
       WHERE id IN (SELECT value FROM json_each(?1)) AND user_id = ?2 AND purpose = 'post' AND ${IN_POSTS_PREFIX_SQL} AND post_id IS NULL
         AND status IN ('uploading', 'ready') AND NOT EXISTS (SELECT 1 FROM message_media mm WHERE mm.media_id = media.id)`,
    )
    .bind(JSON.stringify(mediaIds), authorId)
    .first<{ n: number }>();
  if (row!.n !== mediaIds.length) throw fieldError("mediaIds", MEDIA_NOT_ATTACHABLE);
}

/**
 * Attaches the media in the order given. The same guards as the check above sit in the UPDATE, so two posts
 * racing for one upload cannot both take it: the loser releases what it took, disappears, and answers 422.
 */
async function claimMedia(db: D1Database, authorId: number, postId: number, mediaIds: number[]) {
  const { results } = await db
    .prepare(
      `UPDATE media SET post_id = ?1, position = wanted.key
       FROM (SELECT key, value FROM json_each(?2)) AS wanted
       WHERE media.id = wanted.value AND media.user_id = ?3 AND media.purpose = 'post' AND ${IN_POSTS_PREFIX_SQL} AND media.post_id IS NULL
         AND media.status IN ('uploading', 'ready')
         AND NOT EXISTS (SELECT 1 FROM message_media mm WHERE mm.media_id = media.id)
       RETURNING media.id`,
    )
    .bind(postId, JSON.stringify(mediaIds), authorId)
    .all<{ id: number }>();
  if (results.length === mediaIds.length) return;
  await db.batch([
    db.prepare("UPDATE media SET post_id = NULL, position = 0 WHERE post_id = ?").bind(postId),
    db.prepare("DELETE FROM posts WHERE id = ?").bind(postId),
  ]);
  throw fieldError("mediaIds", MEDIA_NOT_ATTACHABLE);
}
