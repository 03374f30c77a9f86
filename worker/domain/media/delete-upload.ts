import type { DomainContext } from "../context";
import { fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import { discardMedia } from "./discard-media";
import { findOwnUpload } from "./uploads";

const ATTACHED = message("This file belongs to a post: edit the post to remove it.");
const SENT = message("This file was sent in a message and cannot be removed.");
const IN_STORY = message("This file belongs to a story: delete the story to remove it.");
const UNDER_REVIEW = message(
  "This file is part of your creator application under review: it cannot be removed until the application is decided.",
);

interface Uses {
  in_post: number;
  sent: number;
  in_story: number;
  under_review: number;
}

/**
 * The records that use a file (?1): a post; a message, or a mass message scheduled or still being sent (which names its
 * files until its copies are written); a story; a creator request waiting for an admin (its ID images are the
 * evidence the admin decides on).
 */
const USES_SQL = `SELECT
  EXISTS (SELECT 1 FROM post_media WHERE media_id = ?1) AS in_post,
  EXISTS (SELECT 1 FROM message_media WHERE media_id = ?1)
    OR EXISTS (SELECT 1 FROM mass_messages m, json_each(m.media_ids) j WHERE m.sender_id = ?2 AND m.status IN ('scheduled', 'sending') AND j.value = ?1) AS sent,
  EXISTS (SELECT 1 FROM stories WHERE media_id = ?1) AS in_story,
  EXISTS (SELECT 1 FROM creator_requests r WHERE r.user_id = ?2 AND r.status = 'pending' AND ?1 IN (r.document_media_id, r.selfie_media_id)) AS under_review`;

/**
 * The uploader removes a file nothing uses yet: a composer's photo taken back, an aborted upload. A file a record
 * uses stays (a content file then stays in the vault when the record goes: docs/decisions/vault.md); a profile image in use is the person's to take down, and is
 * cleared from the profile too.
 */
export async function deleteUpload(ctx: DomainContext, userId: number, mediaId: number): Promise<void> {
  const upload = await findOwnUpload(ctx.db, userId, mediaId);
  const uses = (await ctx.db.prepare(USES_SQL).bind(mediaId, userId).first<Uses>())!;
  if (uses.in_post) throw fieldError("file", ATTACHED);
  if (uses.sent) throw fieldError("file", SENT);
  if (uses.in_story) throw fieldError("file", IN_STORY);
  if (uses.under_review) throw fieldError("file", UNDER_REVIEW);
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
