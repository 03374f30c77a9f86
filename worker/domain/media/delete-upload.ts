import type { DomainContext } from "../context";
import { fieldError } from "../shared/errors";
import { message } from "../shared/messages";
import { discardMedia } from "./discard-media";
import { findOwnUpload } from "./uploads";

const ATTACHED = message("This file belongs to a post: edit the post to remove it.");
const SENT = message("This file was sent in a message and cannot be removed.");
const IN_STORY = message("This file belongs to a story: delete the story to remove it.");

/**
 * The uploader removes a file not (yet) attached to a post: a composer's photo taken back, an aborted upload.
 * A profile image in use is cleared from the profile too.
 */
export async function deleteUpload(ctx: DomainContext, userId: number, mediaId: number): Promise<void> {
  const upload = await findOwnUpload(ctx.db, userId, mediaId);
  if (upload.post_id !== null) throw fieldError("file", ATTACHED);
  if (await ctx.db.prepare("SELECT 1 FROM message_media WHERE media_id = ? LIMIT 1").bind(mediaId).first()) throw fieldError("file", SENT);
  if (await ctx.db.prepare("SELECT 1 FROM stories WHERE media_id = ?").bind(mediaId).first()) throw fieldError("file", IN_STORY);
  await ctx.db
    .prepare(
      `UPDATE users SET avatar_key = CASE WHEN avatar_key = ?2 THEN NULL ELSE avatar_key END,
                        cover_key = CASE WHEN cover_key = ?2 THEN NULL ELSE cover_key END
       WHERE id = ?1 AND ?2 IN (avatar_key, cover_key)`,
    )
    .bind(userId, upload.object_key)
    .run();
  await discardMedia(ctx.env, [upload]);
}
