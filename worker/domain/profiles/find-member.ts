import type { UserRow } from "../accounts/users";
import { AppError } from "../shared/errors";
import { message } from "../shared/messages";

export const PROFILE_NOT_FOUND = message("This profile does not exist.");

/** A user by username, as everyone else may find them: suspended accounts do not exist for others. */
export const findVisibleUser = (db: D1Database, username: string) =>
  db.prepare("SELECT * FROM users WHERE username = ? AND suspended_at IS NULL").bind(username).first<UserRow>();

/**
 * The other party of a follow, a subscription or a tip: must exist, must not be the actor, and neither may have
 * blocked the other. One query (the user and the block between them), as it sits on the paying paths.
 */
export async function findCounterpart(db: D1Database, username: string, actorId: number, selfMessage: string): Promise<UserRow> {
  const row = await db
    .prepare(
      `SELECT u.*, EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ?2 AND b.blocked_id = u.id) OR (b.blocker_id = u.id AND b.blocked_id = ?2)) AS blocked_between
       FROM users u WHERE u.username = ?1 AND u.suspended_at IS NULL`,
    )
    .bind(username, actorId)
    .first<UserRow & { blocked_between: number }>();
  if (!row) throw new AppError("not_found", PROFILE_NOT_FOUND);
  const { blocked_between: blocked, ...user } = row;
  if (user.id === actorId) throw new AppError("forbidden", selfMessage);
  if (blocked) throw new AppError("forbidden", message("This profile is not available."));
  return user;
}
