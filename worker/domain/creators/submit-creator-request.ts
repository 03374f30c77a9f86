import type { CreatorRequestInput } from "@shared/contracts/creators";
import type { UserRow } from "../accounts/users";
import { AppError, EMAIL_NOT_VERIFIED, fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";

const ALREADY_CREATOR = message("You are already a creator.");
const ALREADY_PENDING = message("Your application is already pending validation.");

/** The uploaded ID image must be the applicant's own, finished, and uploaded for this very purpose. */
async function assertOwnIdImage(
  db: D1Database,
  userId: number,
  mediaId: number,
  purpose: "id_document" | "id_selfie",
  field: string,
) {
  const row = await db
    .prepare(
      "SELECT 1 AS ok FROM media WHERE id = ? AND user_id = ? AND purpose = ? AND status = 'ready' AND kind = 'image'",
    )
    .bind(mediaId, userId, purpose)
    .first();
  if (!row) {
    throw fieldError(
      field,
      purpose === "id_document"
        ? message("Upload a photo of your ID document.")
        : message("Upload a selfie holding your ID document."),
    );
  }
}

/**
 * Spec §4: a member with a verified email, a profile photo and a cover image sends their ID document and a
 * selfie holding it; the request waits for an admin. One pending request at a time. `language` is the one the member
 * applies in: the decision is mailed in it.
 */
export async function submitCreatorRequest(
  db: D1Database,
  user: UserRow,
  input: CreatorRequestInput,
  language: string,
): Promise<number> {
  if (user.role !== "member") throw new AppError("forbidden", ALREADY_CREATOR);
  if (user.email_verified_at === null) throw new AppError("forbidden", EMAIL_NOT_VERIFIED);
  if (user.avatar_key === null) throw fieldError("avatar", message("Add a profile photo first."));
  if (user.cover_key === null) throw fieldError("cover", message("Add a cover image first."));
  await assertOwnIdImage(db, user.id, input.documentMediaId, "id_document", "documentMediaId");
  await assertOwnIdImage(db, user.id, input.selfieMediaId, "id_selfie", "selfieMediaId");
  // The partial unique index creator_requests_pending makes the "one pending" rule hold under races too.
  const row = await db
    .prepare(
      `INSERT INTO creator_requests (user_id, document_media_id, selfie_media_id, language, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING RETURNING id`,
    )
    .bind(user.id, input.documentMediaId, input.selfieMediaId, language, isoNow())
    .first<{ id: number }>();
  if (!row) throw new AppError("validation", ALREADY_PENDING);
  return row.id;
}
