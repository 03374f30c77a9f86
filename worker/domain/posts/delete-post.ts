import type { EffectsContext } from "../context";
import { AppError } from "../shared/errors";
import { POST_NOT_FOUND } from "./post-rules";
import { deleteRenditionObjects, type RenditionRow } from "../media/renditions/renditions";
import { STORED_KEY_COLUMNS, storedKeysOf, type StoredKeys } from "../media/uploads";
import { deleteStreamVideos } from "../media/stream/delete-stream-videos";

interface StoredMedia extends StoredKeys {
  upload_id: string | null;
}
type StoredRendition = Pick<RenditionRow, "object_key" | "upload_id">;

/**
 * The author deletes their post: its rows (media, likes, comments, bookmarks and purchases go with it) in one
 * atomic batch, then its R2 objects after the answer. Someone else's post is simply not found.
 */
export async function deletePost(
  ctx: Pick<EffectsContext, "env" | "db" | "defer">,
  authorId: number,
  postId: number,
): Promise<void> {
  const { db } = ctx;
  const owned = "SELECT id FROM posts WHERE id = ?1 AND user_id = ?2";
  const [renditions, media, post] = await db.batch([
    // Read before the media rows go (their renditions' rows go with them).
    db
      .prepare(
        `DELETE FROM media_renditions WHERE media_id IN (SELECT id FROM media WHERE post_id IN (${owned})) RETURNING object_key, upload_id`,
      )
      .bind(postId, authorId),
    db
      .prepare(`DELETE FROM media WHERE post_id IN (${owned}) RETURNING ${STORED_KEY_COLUMNS}, upload_id`)
      .bind(postId, authorId),
    db.prepare(`DELETE FROM posts WHERE id IN (${owned}) RETURNING id`).bind(postId, authorId),
  ]);
  if (post!.results.length === 0) throw new AppError("not_found", POST_NOT_FOUND);
  const stored = media!.results as StoredMedia[];
  if (stored.length > 0)
    ctx.defer(
      Promise.all([
        deleteStoredMedia(ctx.env.MEDIA, stored, renditions!.results as StoredRendition[]),
        deleteStreamVideos(ctx.env, stored),
      ]),
    );
}

/**
 * Removes the objects (file, poster, preview, copies, renditions) and aborts uploads still running. Best effort:
 * logged on failure.
 */
async function deleteStoredMedia(bucket: R2Bucket, media: StoredMedia[], renditions: StoredRendition[]): Promise<void> {
  try {
    await deleteRenditionObjects(bucket, renditions);
    await bucket.delete(storedKeysOf(media));
    await Promise.all(
      media
        .filter((m) => m.upload_id)
        .map((m) =>
          bucket
            .resumeMultipartUpload(m.object_key, m.upload_id!)
            .abort()
            .catch(() => undefined),
        ),
    );
  } catch (error) {
    console.warn("deleting a post's media objects failed", error);
  }
}
