import type { UserRow } from "../accounts/users";
import { blockedEitherWaySql, geoHiddenSql } from "../policies/members";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { setBounded } from "../shared/bounded-map";
import { readOne, type Read } from "../shared/reads";

export const PROFILE_NOT_FOUND = message("This profile does not exist.");

/**
 * A user by username, as the viewer (null: a visitor) may find them: suspended accounts do not exist for others,
 * nor a creator who geo-blocks the viewer's place.
 */
export const findVisibleUserStatement = (db: D1Database, username: string, viewerId: number | null) =>
  db
    .prepare(
      `SELECT u.* FROM users u WHERE u.username = ?1 AND u.suspended_at IS NULL AND NOT ${geoHiddenSql("u", "?2")}`,
    )
    .bind(username, viewerId);

export const findVisibleUser = (db: D1Database, username: string, viewerId: number | null) =>
  findVisibleUserStatement(db, username, viewerId).first<UserRow>();

/**
 * Who the usernames this isolate has looked up lately named: a guess, never a fact. A profile's reads that need the
 * user's id are sent with the read of the user itself (one round trip instead of two) when the guess is there, and
 * their answers are used only if the user read in that same batch is still the one guessed; a username renamed or
 * taken by someone else since is read again with the right id (getProfile, the profile page's loader).
 */
const knownProfiles = new Map<string, { id: number; isCreator: boolean }>();
const KNOWN_PROFILES_CAPACITY = 10_000;

export const guessedProfile = (username: string) => knownProfiles.get(username) ?? null;

/** Notes who `username` names now (null: nobody visible), for the next guess. */
export function noteProfile(username: string, user: Pick<UserRow, "id" | "role"> | null): void {
  knownProfiles.delete(username);
  if (!user) return;
  setBounded(knownProfiles, username, { id: user.id, isCreator: user.role === "creator" }, KNOWN_PROFILES_CAPACITY);
}

/**
 * The other party of a follow, a subscription or a tip: must exist, must not be the actor, and neither may have
 * blocked the other. One query (the user and the block between them), as it sits on the paying paths.
 */
export const findCounterpart = (
  db: D1Database,
  username: string,
  actorId: number,
  selfMessage: string,
): Promise<UserRow> => readOne(counterpartRead(db, username, actorId, selfMessage));

/** findCounterpart as a read, for a command that sends it in one batch with its other reads. */
export function counterpartRead(db: D1Database, username: string, actorId: number, selfMessage: string): Read<UserRow> {
  const statement = db
    .prepare(
      `SELECT u.*, ${blockedEitherWaySql("?2", "u.id")} AS blocked_between
       FROM users u WHERE u.username = ?1 AND u.suspended_at IS NULL AND NOT ${geoHiddenSql("u", "?2")}`,
    )
    .bind(username, actorId);
  return {
    statement,
    answer(result) {
      const row = result.results[0] as (UserRow & { blocked_between: number }) | undefined;
      if (!row) throw new AppError("not_found", PROFILE_NOT_FOUND);
      const { blocked_between: blocked, ...user } = row;
      if (user.id === actorId) throw new AppError("forbidden", selfMessage);
      if (blocked) throw new AppError("forbidden", message("This profile is not available."));
      return user;
    },
  };
}
