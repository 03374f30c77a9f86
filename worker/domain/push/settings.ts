import { vapidOf } from "../../env";
import type { DomainContext } from "../context";
import { LIMITS, RateLimiter } from "../auth/rate-limit";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { PUSH_KINDS, type PushKind } from "@shared/contracts/push-kinds";
import type { PushPreferences, PushSettings } from "@shared/contracts/push";
import { listDevices, PUSH_OFF, pushIsOn } from "./devices";
import { PUSH_KIND_OF_NOTIFICATION } from "./kinds";
import type { PushJob } from "./jobs";
import type { NotificationKind } from "@shared/contracts/notifications";

const NO_DEVICES = message("Turn on push notifications on this device first.");

const ALL_ON: PushPreferences = Object.fromEntries(PUSH_KINDS.map((kind) => [kind, true])) as PushPreferences;

async function getPreferences(db: D1Database, userId: number): Promise<PushPreferences> {
  const row = await db
    .prepare(`SELECT ${PUSH_KINDS.join(", ")} FROM push_preferences WHERE user_id = ?`)
    .bind(userId)
    .first<Record<PushKind, number>>();
  return row
    ? (Object.fromEntries(PUSH_KINDS.map((kind) => [kind, row[kind] === 1])) as PushPreferences)
    : { ...ALL_ON };
}

/** Replaces the caller's choice of kinds (they apply to all their devices). */
export async function setPreferences(
  db: D1Database,
  userId: number,
  preferences: PushPreferences,
): Promise<PushPreferences> {
  const values = PUSH_KINDS.map((kind) => (preferences[kind] ? 1 : 0));
  await db
    .prepare(
      `INSERT INTO push_preferences (user_id, ${PUSH_KINDS.join(", ")}, updated_at) VALUES (?, ${PUSH_KINDS.map(() => "?").join(", ")}, ?)
       ON CONFLICT (user_id) DO UPDATE SET ${PUSH_KINDS.map((kind) => `${kind} = excluded.${kind}`).join(", ")}, updated_at = excluded.updated_at`,
    )
    .bind(userId, ...values, isoNow())
    .run();
  return getPreferences(db, userId);
}

export async function getPushSettings(
  ctx: Pick<DomainContext, "db" | "config">,
  userId: number,
): Promise<PushSettings> {
  const [preferences, devices] = await Promise.all([getPreferences(ctx.db, userId), listDevices(ctx.db, userId)]);
  return { enabled: pushIsOn(ctx.config), publicKey: vapidOf(ctx.config)?.publicKey ?? null, preferences, devices };
}

/**
 * Settings → Notifications → "Send a test": checks that the caller's devices receive pushes. Answers the
 * devices to send it to; the caller queues the sends (the domain never sends).
 */
export async function requestTestPush(ctx: Pick<DomainContext, "db" | "config">, userId: number): Promise<number[]> {
  if (!pushIsOn(ctx.config)) throw new AppError("conflict", PUSH_OFF);
  await new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE).hit(
    `test-push:user:${userId}`,
    LIMITS.testNotificationsPerAccount,
  );
  const { results } = await ctx.db
    .prepare("SELECT id FROM push_subscriptions WHERE user_id = ? ORDER BY id")
    .bind(userId)
    .all<{ id: number }>();
  if (results.length === 0) throw new AppError("conflict", NO_DEVICES);
  return results.map((row) => row.id);
}

/** A condition on push_subscriptions s (to follow an AND): its owner has not turned `kind` off (null: any device). */
const wantsSql = (kind: PushKind | null) =>
  kind ? `AND NOT EXISTS (SELECT 1 FROM push_preferences p WHERE p.user_id = s.user_id AND p.${kind} = 0)` : "";

/**
 * The newest notification of `kind` for `userId` and the devices that want it pushed, in one statement: the one a
 * command just recorded (asked right after its INSERT, in the same batch, or after the commit). No rows when no
 * device wants it, as for most people. `pushJobsOf` turns the rows into the pushes to queue.
 */
export function notificationPushStatement(db: D1Database, userId: number, kind: NotificationKind): D1PreparedStatement {
  return db
    .prepare(
      `SELECT n.id AS notification_id, s.id AS subscription_id
       FROM (SELECT id FROM notifications WHERE user_id = ?1 AND kind = ?2 ORDER BY id DESC LIMIT 1) n
       JOIN push_subscriptions s ON s.user_id = ?1 ${wantsSql(PUSH_KIND_OF_NOTIFICATION[kind])}
       ORDER BY s.id`,
    )
    .bind(userId, kind);
}

export const pushJobsOf = (result: D1Result): PushJob[] =>
  (result.results as { notification_id: number; subscription_id: number }[]).map((row) => ({
    subscriptionId: row.subscription_id,
    topic: { type: "notification", notificationId: row.notification_id },
  }));

/**
 * The devices to push `kind` to among `userIds` (null kind: every device, whatever the preferences): one
 * statement for a whole fan-out.
 */
export async function devicesWanting(db: D1Database, userIds: number[], kind: PushKind | null): Promise<number[]> {
  if (userIds.length === 0) return [];
  return deviceIdsOf(await devicesWantingStatement(db, userIds, kind).all());
}

/** devicesWanting's statement, for a batch that reads the devices with the write that calls for the push. */
export function devicesWantingStatement(db: D1Database, userIds: number[], kind: PushKind | null): D1PreparedStatement {
  return db
    .prepare(
      `SELECT s.id FROM push_subscriptions s
       WHERE s.user_id IN (SELECT value FROM json_each(?1)) ${wantsSql(kind)}
       ORDER BY s.id`,
    )
    .bind(JSON.stringify(userIds));
}

export const deviceIdsOf = (result: D1Result): number[] => (result.results as { id: number }[]).map((row) => row.id);
