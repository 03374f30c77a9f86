import type { EffectsContext } from "../context";
import { findUserById } from "../accounts/users";
import { discardMedia } from "../media/discard-media";
import { STORED_KEY_COLUMNS, type StoredKeys, type UploadRow } from "../media/uploads";
import {
  availableOf,
  newTransferRef,
  PAYOUTS,
  PLATFORM_FEES,
  transferIdSql,
  transferStatements,
  walletOf,
} from "../money/ledger";
import { findPayoutMethod, payoutDetailsOf } from "../money/payout-methods";
import { systemKey } from "../money/rules";
import { deletePost } from "../posts/delete-post";
import { isoNow } from "../shared/time";
import { getDeletionState } from "./deletion-state";

type StoredMedia = Pick<UploadRow, "id" | "upload_id"> & StoredKeys;

/**
 * "deleted", or why the deletion waits for a later run: earnings still held or a withdrawal not yet decided (they
 * settle first), or money available with no payout method to send it to.
 */
type DeletionOutcome = "deleted" | "waiting";

/**
 * Deletes a leaving account for good, after its grace days (the cron: deleteDueAccounts). Money first, through the
 * ledger: what the creator has available is requested as a closing payout to the method on file (the $50 minimum
 * waived; an admin pays it as any other), and what the wallet holds is forfeited to the platform, as the dialog
 * said. Then their posts (with their files), stories, other uploads (message attachments, profile images) and
 * everything that names them go; the text of the messages they sent is blanked, the rows staying in the other
 * person's thread, which shows nothing of a deleted account anyway. The users row stays as a tombstone, hidden
 * forever, with no name, address, password or profile: the ledger's lines, payments and earnings still point at it.
 * Each step can run again, so a run that stops half-way is finished by the next.
 */
export async function deleteAccount(ctx: EffectsContext, userId: number): Promise<DeletionOutcome> {
  const { db } = ctx;
  const state = await getDeletionState(db, userId);
  if (state.pendingCents > 0 || state.openPayoutCents > 0) return "waiting";
  const now = isoNow();
  if (state.availableCents > 0) {
    const method = await findPayoutMethod(db, userId);
    if (!method) return "waiting";
    const ref = newTransferRef();
    const transferId = transferIdSql(ref);
    await db.batch([
      ...transferStatements(db, {
        ref,
        kind: "withdrawal",
        createdAt: now,
        legs: [
          { account: availableOf(userId), amount: -state.availableCents },
          { account: PAYOUTS, amount: state.availableCents },
        ],
      }),
      db
        .prepare(
          `INSERT INTO payouts (creator_id, amount_cents, status, method_kind, method_details, idempotency_key, request_hash, request_transfer_id, created_at, closing)
           VALUES (?, ?, 'requested', ?, ?, ?, 'account-deletion', ${transferId.sql}, ?, 1)`,
        )
        .bind(
          userId,
          state.availableCents,
          method.kind,
          JSON.stringify(payoutDetailsOf(method)),
          systemKey(`account-deletion:${userId}`),
          ...transferId.binds,
          now,
        ),
    ]);
  }
  if (state.walletCents > 0) {
    await db.batch(
      transferStatements(db, {
        kind: "correction",
        memo: "account deleted: wallet forfeited",
        createdAt: now,
        legs: [
          { account: walletOf(userId), amount: -state.walletCents },
          { account: PLATFORM_FEES, amount: state.walletCents },
        ],
      }),
    );
  }

  const { results: posts } = await db
    .prepare("SELECT id FROM posts WHERE user_id = ?")
    .bind(userId)
    .all<{ id: number }>();
  for (const post of posts) await deletePost(ctx, userId, post.id);
  // Stories and creator requests point at their files without cascading: they go before the files.
  await db.batch([
    db.prepare("DELETE FROM stories WHERE creator_id = ?").bind(userId),
    db.prepare("DELETE FROM story_highlights WHERE creator_id = ?").bind(userId),
    db.prepare("DELETE FROM creator_requests WHERE user_id = ?").bind(userId),
  ]);
  const { results: files } = await db
    .prepare(`SELECT id, upload_id, ${STORED_KEY_COLUMNS} FROM media WHERE user_id = ?`)
    .bind(userId)
    .all<StoredMedia>();
  await discardMedia(ctx.env, files);

  const user = await findUserById(db, userId);
  const { results: exports } = await db
    .prepare("SELECT object_key FROM data_exports WHERE user_id = ?")
    .bind(userId)
    .all<{ object_key: string }>();
  const storedKeys = [user?.avatar_key, user?.cover_key, ...exports.map((row) => row.object_key)].filter(
    (key): key is string => Boolean(key),
  );
  if (storedKeys.length > 0) await ctx.env.MEDIA.delete(storedKeys);

  const both = (table: string, a: string, b: string) =>
    db.prepare(`DELETE FROM ${table} WHERE ${a} = ?1 OR ${b} = ?1`).bind(userId);
  const own = (table: string, column = "user_id") =>
    db.prepare(`DELETE FROM ${table} WHERE ${column} = ?`).bind(userId);
  const results = await db.batch<{ id: number }>([
    db.prepare("DELETE FROM sessions WHERE user_id = ? RETURNING id").bind(userId),
    db.prepare("UPDATE messages SET text = '', media_count = 0, price_cents = 0 WHERE sender_id = ?").bind(userId),
    own("mass_messages", "sender_id"),
    own("comments"),
    own("likes"),
    own("bookmarks"),
    own("story_views", "viewer_id"),
    own("post_purchases"),
    own("message_purchases"),
    both("follows", "follower_id", "creator_id"),
    both("blocks", "blocker_id", "blocked_id"),
    both("notifications", "user_id", "actor_id"),
    own("push_subscriptions"),
    own("push_preferences"),
    own("one_time_tokens"),
    own("payout_methods"),
    own("data_exports"),
    own("known_devices"),
    own("passkeys"),
    own("passkey_challenges"),
    own("geo_blocks", "creator_id"),
    own("two_step"),
    own("two_step_recovery_codes"),
    own("two_step_challenges"),
    own("two_step_trusted_devices"),
    own("reports", "reporter_id"),
    db
      .prepare(
        "UPDATE subscriptions SET status = 'expired', ended_at = ?2 WHERE (fan_id = ?1 OR creator_id = ?1) AND status <> 'expired'",
      )
      .bind(userId, now),
    db
      .prepare(
        `UPDATE users SET username = 'deleted-' || id, name = 'Deleted account', email = 'deleted-' || id || '@deleted.invalid',
           email_verified_at = NULL, password_hash = '', date_of_birth = '', bio = '', avatar_key = NULL, cover_key = NULL,
           location = '', website = '', message_price_cents = 0, home_seen_at = NULL,
           suspended_at = COALESCE(suspended_at, ?2), deletion_due_at = NULL, deleted_at = ?2, updated_at = ?2
         WHERE id = ?1`,
      )
      .bind(userId, now),
  ]);
  ctx.publish({ type: "SessionsEnded", userId, sessionIds: results[0]!.results.map((row) => row.id) });
  return "deleted";
}
