import type { DomainContext } from "../context";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";

const ACCOUNT_SUSPENDED = message("This account has been suspended.");

/**
 * Sign-in and magic links refuse a suspended account (told only after the password or link proved who it is). An
 * account hidden because its owner is leaving lets them in, to keep it if they wish.
 */
export function assertNotSuspended(user: { suspended_at: string | null; deletion_due_at: string | null }) {
  if (user.suspended_at !== null && user.deletion_due_at === null)
    throw new AppError("forbidden", ACCOUNT_SUSPENDED, { login: [ACCOUNT_SUSPENDED] });
}

/**
 * An admin suspends an account: it is signed out everywhere (sessions gone, sockets closed) and its posts and
 * media disappear from every list and /media, whose queries skip suspended authors. Admins cannot be suspended.
 * An account its owner is leaving stays scheduled for deletion no more: the suspension stands, and its content is
 * kept for the admins.
 */
export async function suspendUser(ctx: Pick<DomainContext, "db" | "publish">, userId: number): Promise<void> {
  const result = await ctx.db
    .prepare(
      "UPDATE users SET suspended_at = COALESCE(suspended_at, ?), deletion_due_at = NULL WHERE id = ? AND role <> 'admin' AND deleted_at IS NULL",
    )
    .bind(isoNow(), userId)
    .run();
  if ((result.meta.changes ?? 0) === 0) throw new AppError("validation", message("This account cannot be suspended."));
  const ended = await ctx.db
    .prepare("DELETE FROM sessions WHERE user_id = ? RETURNING id")
    .bind(userId)
    .all<{ id: number }>();
  ctx.publish({ type: "SessionsEnded", userId, sessionIds: ended.results.map((row) => row.id) });
}
