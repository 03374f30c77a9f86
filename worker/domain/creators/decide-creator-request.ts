import type { DomainContext } from "../context";
import { creatorRequestDecidedMail } from "../mail/templates";
import { discardMediaByIds } from "../media/discard-media";
import { createNotification } from "../notifications/notifications";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { forgetSessionsOf } from "../auth/sessions";
import { translatorFor } from "../i18n";

const REQUEST_NOT_PENDING = message("This request does not exist or has already been decided.");
const ID_IMAGES_MISSING = message(
  "This application's ID document or selfie is missing: it cannot be approved. Reject it so that the member can apply again.",
);

export type CreatorDecision = { status: "approved" } | { status: "rejected"; reason: string };

interface PendingRow {
  user_id: number;
  email: string;
  name: string;
  document_media_id: number | null;
  selfie_media_id: number | null;
  language: string;
  /** How many of the two ID images are there, uploaded in full. */
  id_images: number;
}

/**
 * An admin approves or rejects a pending request. Approval makes the member a creator with monetization on and
 * a free monthly plan, so fans can subscribe at once (the creator prices plans later); it needs both ID images (a
 * request whose images are gone can only be rejected). Either way the ID images leave R2 and D1, and the member
 * is notified in the app and by email.
 */
export async function decideCreatorRequest(
  ctx: DomainContext,
  adminId: number,
  requestId: number,
  decision: CreatorDecision,
): Promise<void> {
  const { db } = ctx;
  const request = await db
    .prepare(
      `SELECT r.user_id, u.email, u.name, r.document_media_id, r.selfie_media_id, r.language,
              (SELECT COUNT(*) FROM media m WHERE m.id IN (r.document_media_id, r.selfie_media_id) AND m.status = 'ready') AS id_images
       FROM creator_requests r JOIN users u ON u.id = r.user_id WHERE r.id = ? AND r.status = 'pending'`,
    )
    .bind(requestId)
    .first<PendingRow>();
  if (!request) throw new AppError("not_found", REQUEST_NOT_PENDING);
  if (decision.status === "approved" && request.id_images < 2) throw new AppError("conflict", ID_IMAGES_MISSING);

  const at = isoNow();
  const reason = decision.status === "rejected" ? decision.reason : "";
  const decided = db
    .prepare(
      `UPDATE creator_requests SET status = ?, rejection_reason = ?, decided_at = ?, decided_by = ?, document_media_id = NULL, selfie_media_id = NULL
       WHERE id = ? AND status = 'pending'`,
    )
    .bind(decision.status, reason, at, adminId, requestId);
  const promote = [
    db
      .prepare(
        "UPDATE users SET role = 'creator', monetization_enabled = 1, updated_at = ? WHERE id = ? AND role = 'member'",
      )
      .bind(at, request.user_id),
    db
      .prepare(
        "INSERT INTO subscription_plans (creator_id, period, price_cents, updated_at) VALUES (?, 'month', 0, ?) ON CONFLICT DO NOTHING",
      )
      .bind(request.user_id, at),
  ];
  const [result] = await db.batch(decision.status === "approved" ? [decided, ...promote] : [decided]);
  // Another admin decided between our read and our write: theirs stands, and nothing else happens twice.
  if ((result!.meta.changes ?? 0) === 0) throw new AppError("not_found", REQUEST_NOT_PENDING);
  // The member's session copies in this isolate read the new role at once (elsewhere within SESSION_CACHE_SECONDS).
  forgetSessionsOf(request.user_id);

  // The ID document and selfie are kept only until the decision: an identity document is kept no longer than it is needed.
  await discardMediaByIds(
    ctx.env,
    [request.document_media_id, request.selfie_media_id].filter((id): id is number => id !== null),
  );
  await createNotification(ctx, {
    userId: request.user_id,
    kind: "creator_request",
    params: { status: decision.status, reason },
  });
  // In the member's language, whatever the admin's.
  await ctx.mailer.send(
    creatorRequestDecidedMail(
      translatorFor(request.language),
      request.email,
      request.name,
      decision.status,
      reason,
      `${ctx.origin}${decision.status === "approved" ? "/dashboard" : "/becomeCreator"}`,
    ),
  );
}
