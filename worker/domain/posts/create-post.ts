import type { UserRow } from "../accounts/users";
import type { EffectsContext } from "../context";
import { AppError, fieldError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { settleProcessingPost } from "./complete-processing";
import { getPost } from "./get-post";
import type { CreatePostInput } from "@shared/contracts/posts";
import { MEDIA_NOT_ATTACHABLE, ONLY_CREATORS_POST } from "./post-rules";
import type { PostView } from "./present-posts";

export const canPost = (user: Pick<UserRow, "role">) => user.role === "creator" || user.role === "admin";

/**
 * The composer's post. Without media it is published now (or scheduled) in one statement. With media it is
 * inserted as `processing`, the media are attached (vault files of the author, used elsewhere or not: a file is
 * stored once, docs/decisions/vault.md; not failed), and it settles at once when every file is already uploaded; otherwise the upload that completes
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

/** A vault file of the author (?2) that a post may take: finished or still uploading (the post then waits). */
const ATTACHABLE_SQL = "media.user_id = ?2 AND media.purpose = 'post' AND media.status IN ('uploading', 'ready')";

/** The friendly check before writing: each id names an upload of this author that a post may take. */
async function assertAttachable(db: D1Database, authorId: number, mediaIds: number[]) {
  const row = await db
    .prepare(`SELECT COUNT(*) AS n FROM media WHERE id IN (SELECT value FROM json_each(?1)) AND ${ATTACHABLE_SQL}`)
    .bind(JSON.stringify(mediaIds), authorId)
    .first<{ n: number }>();
  if (row!.n !== mediaIds.length) throw fieldError("mediaIds", MEDIA_NOT_ATTACHABLE);
}

/**
 * Attaches the media in the order given, with the same guards as the check above: a file deleted from the vault
 * in between is not attached, and the post then disappears and answers 422.
 */
async function claimMedia(db: D1Database, authorId: number, postId: number, mediaIds: number[]) {
  const { results } = await db
    .prepare(
      `INSERT INTO post_media (post_id, media_id, position)
       SELECT ?1, media.id, wanted.key FROM (SELECT key, value FROM json_each(?3)) AS wanted
       JOIN media ON media.id = wanted.value
       WHERE ${ATTACHABLE_SQL}
       RETURNING media_id`,
    )
    .bind(postId, authorId, JSON.stringify(mediaIds))
    .all<{ media_id: number }>();
  if (results.length === mediaIds.length) return;
  // Its post_media rows go with it.
  await db.prepare("DELETE FROM posts WHERE id = ?").bind(postId).run();
  throw fieldError("mediaIds", MEDIA_NOT_ATTACHABLE);
}
