import { publicMediaUrl } from "../accounts/users";
import type { DomainContext } from "../context";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import type { Read } from "../shared/reads";
import type { BlockedUser } from "@shared/contracts/moderation";

const CANNOT_BLOCK_YOURSELF = message("You cannot block yourself.");

async function userIdByUsername(db: D1Database, username: string): Promise<number> {
  const row = await db
    .prepare("SELECT id FROM users WHERE username = ?")
    .bind(username.toLowerCase())
    .first<{ id: number }>();
  if (!row) throw new AppError("not_found", message("This user does not exist."));
  return row.id;
}

/**
 * Blocking cuts every tie between the two, both ways: follows go, live subscriptions end now (expired), and
 * from then on neither sees the other's posts (lockOf), follows, subscribes or messages (blockedEitherWaySql), and
 * neither watches the other's live stream (UserBlocked: the room closes their sockets at once).
 */
export async function blockUser(
  ctx: Pick<DomainContext, "db" | "publish">,
  blockerId: number,
  username: string,
): Promise<void> {
  const { db } = ctx;
  const blockedId = await userIdByUsername(db, username);
  if (blockedId === blockerId) throw new AppError("validation", CANNOT_BLOCK_YOURSELF);
  const at = isoNow();
  await db.batch([
    db
      .prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
      .bind(blockerId, blockedId, at),
    db
      .prepare(
        "DELETE FROM follows WHERE (follower_id = ?1 AND creator_id = ?2) OR (follower_id = ?2 AND creator_id = ?1)",
      )
      .bind(blockerId, blockedId),
    db
      .prepare(
        `UPDATE subscriptions SET status = 'expired', cancelled_at = COALESCE(cancelled_at, ?3), ended_at = ?3
         WHERE status IN ('active', 'cancelled') AND ((fan_id = ?1 AND creator_id = ?2) OR (fan_id = ?2 AND creator_id = ?1))`,
      )
      .bind(blockerId, blockedId, at),
  ]);
  ctx.publish({ type: "UserBlocked", blockerId, blockedId });
}

/** Unblocking restores nothing: follows and subscriptions have to be made again. */
export async function unblockUser(db: D1Database, blockerId: number, username: string): Promise<void> {
  const blockedId = await userIdByUsername(db, username);
  await db.prepare("DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?").bind(blockerId, blockedId).run();
}

/** Settings → Blocked users: newest block first. */
export async function listBlockedUsers(db: D1Database, blockerId: number): Promise<BlockedUser[]> {
  const { results } = await db
    .prepare(
      `SELECT u.username, u.name, u.avatar_key, b.created_at FROM blocks b JOIN users u ON u.id = b.blocked_id
       WHERE b.blocker_id = ? ORDER BY b.created_at DESC LIMIT 500`,
    )
    .bind(blockerId)
    .all<{ username: string; name: string; avatar_key: string | null; created_at: string }>();
  return results.map((row) => ({
    username: row.username,
    name: row.name,
    avatarUrl: publicMediaUrl(row.avatar_key),
    blockedAt: row.created_at,
  }));
}

/** Whether the viewer blocks this user (the profile's Block / Unblock button), as a read for the page's batch. */
export const blockingRead = (db: D1Database, blockerId: number, username: string): Read<boolean> => ({
  statement: db
    .prepare(
      "SELECT 1 AS x FROM blocks b JOIN users u ON u.id = b.blocked_id WHERE b.blocker_id = ? AND u.username = ?",
    )
    .bind(blockerId, username.toLowerCase()),
  answer: (result) => result.results.length > 0,
});
