import { DELETION_GRACE_DAYS, type AccountDeletionInput } from "@shared/contracts/account-deletion";
import { message } from "@shared/messages";
import { confirmPassword } from "../accounts/confirm-password";
import type { UserRow } from "../accounts/users";
import { confirmSecondStep } from "../auth/second-step";
import type { DomainContext } from "../context";
import { AppError } from "../shared/errors";
import { DAY, isoIn, isoNow } from "../shared/time";
import { getDeletionState, type AccountDeletionView } from "./deletion-state";

const ADD_PAYOUT_METHOD = message(
  "Add a payout method first: what you have earned is paid to it before your account is deleted.",
);
const ADMIN_STAYS = message("An admin account cannot be deleted from here.");

/**
 * The person asks to delete their account, with their password (and a two-step code when that is on). It is hidden
 * at once, as a suspended account is (profile, posts, media, stories, streams, comments: not found for everyone
 * else; renewals stop), their other sessions end, and the cron deletes it after DELETION_GRACE_DAYS unless they sign
 * in and keep it. A creator with earnings and no payout method is asked to add one first. Asking again while
 * leaving answers the state as it is.
 */
export async function requestDeletion(
  ctx: DomainContext,
  session: { sessionId: number; user: UserRow },
  input: AccountDeletionInput,
): Promise<AccountDeletionView> {
  const { user } = session;
  if (user.role === "admin") throw new AppError("forbidden", ADMIN_STAYS);
  if (user.deletion_due_at !== null) return getDeletionState(ctx.db, user.id);
  await confirmPassword(ctx, user, input.password);
  await confirmSecondStep(ctx, user, input.code || undefined);
  const state = await getDeletionState(ctx.db, user.id);
  if (state.isCreator && state.pendingCents + state.availableCents > 0 && !state.hasPayoutMethod)
    throw new AppError("validation", ADD_PAYOUT_METHOD);
  const [, ended] = await ctx.db.batch<{ id: number }>([
    ctx.db
      .prepare(
        "UPDATE users SET suspended_at = ?, deletion_due_at = ? WHERE id = ? AND suspended_at IS NULL AND deletion_due_at IS NULL",
      )
      .bind(isoNow(), isoIn(DELETION_GRACE_DAYS * DAY), user.id),
    ctx.db.prepare("DELETE FROM sessions WHERE user_id = ? AND id <> ? RETURNING id").bind(user.id, session.sessionId),
  ]);
  ctx.publish({ type: "SessionsEnded", userId: user.id, sessionIds: ended!.results.map((row) => row.id) });
  return getDeletionState(ctx.db, user.id);
}
