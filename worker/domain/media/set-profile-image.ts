import type { DomainContext } from "../context";
import { fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { discardMedia } from "./discard-media";
import { findOwnUpload, mediaUrl, type UploadRow } from "./uploads";

export type ProfileImage = "avatar" | "cover";

const NOT_READY = message("Finish uploading the image first.");
const WRONG_PURPOSE = message("This image was not uploaded for this place.");

/**
 * Makes an uploaded image the user's avatar or cover. The image replaced is deleted (object and row), so a
 * profile holds one of each.
 */
export async function setProfileImage(
  ctx: DomainContext,
  userId: number,
  mediaId: number,
  which: ProfileImage,
): Promise<{ url: string }> {
  const upload = await findOwnUpload(ctx.db, userId, mediaId);
  if (upload.purpose !== which) throw fieldError("mediaId", WRONG_PURPOSE);
  if (upload.status !== "ready") throw fieldError("mediaId", NOT_READY);
  const column = which === "avatar" ? "avatar_key" : "cover_key";
  const before = await ctx.db
    .prepare(`SELECT ${column} AS key FROM users WHERE id = ?`)
    .bind(userId)
    .first<{ key: string | null }>();
  await ctx.db
    .prepare(`UPDATE users SET ${column} = ?, updated_at = ? WHERE id = ?`)
    .bind(upload.object_key, isoNow(), userId)
    .run();
  if (before?.key && before.key !== upload.object_key) {
    const previous = await ctx.db
      .prepare("SELECT * FROM media WHERE object_key = ? AND user_id = ?")
      .bind(before.key, userId)
      .first<UploadRow>();
    if (previous) await discardMedia(ctx.env, [previous]);
    else await ctx.env.MEDIA.delete(before.key);
  }
  return { url: mediaUrl(upload.object_key) };
}
