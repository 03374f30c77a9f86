import type { UserRow } from "../accounts/users";
import { isBlockedBetween } from "../posts/access";
import { AppError } from "../shared/errors";
import { message } from "../shared/messages";

export const PROFILE_NOT_FOUND = message("This profile does not exist.");

/** A user by username, as everyone else may find them: suspended accounts do not exist for others. */
export const findVisibleUser = (db: D1Database, username: string) =>
  db.prepare("SELECT * FROM users WHERE username = ? AND suspended_at IS NULL").bind(username).first<UserRow>();

/**
 * The other party of a follow or a subscription: must exist, must not be the actor, and neither may have
 * blocked the other.
 */
export async function findCounterpart(db: D1Database, username: string, actorId: number, selfMessage: string): Promise<UserRow> {
  const user = await findVisibleUser(db, username);
  if (!user) throw new AppError("not_found", PROFILE_NOT_FOUND);
  if (user.id === actorId) throw new AppError("forbidden", selfMessage);
  if (await isBlockedBetween(db, actorId, user.id)) throw new AppError("forbidden", message("This profile is not available."));
  return user;
}
