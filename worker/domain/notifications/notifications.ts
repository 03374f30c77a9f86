import { publicMediaUrl } from "../accounts/users";
import type { DomainContext } from "../context";
import { LIMITS, RateLimiter } from "../auth/rate-limit";
import { isoNow } from "../shared/time";
import type { DomainEvent } from "../events";
import { notificationPushStatement, pushJobsOf } from "../push/settings";
import { pushIsOn } from "../push/devices";
import { NOTIFICATION_PAGE_SIZE } from "@shared/contracts/notification-links";
import type { NotificationKind, NotificationView } from "@shared/contracts/notifications";

/**
 * Records a notification and announces it (NotificationCreated: the user's open tabs refetch /api/updates).
 * The announcement follows the committed write, so a client that refetches sees it.
 */
export async function createNotification(
  ctx: Pick<DomainContext, "db" | "publish">,
  notification: {
    userId: number;
    kind: NotificationKind;
    actorId?: number | null;
    params?: Record<string, string | number>;
  },
): Promise<number> {
  const row = await ctx.db
    .prepare(
      "INSERT INTO notifications (user_id, kind, actor_id, params, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(
      notification.userId,
      notification.kind,
      notification.actorId ?? null,
      JSON.stringify(notification.params ?? {}),
      isoNow(),
    )
    .first<{ id: number }>();
  ctx.publish({ type: "NotificationCreated", userId: notification.userId, kind: notification.kind });
  return row!.id;
}

export interface NewNotification {
  userId: number;
  kind: NotificationKind;
  actorId?: number | null;
  params?: Record<string, string | number>;
}

/**
 * The INSERT of a notification, for a batch that must record it together with what it reports (a payment). The
 * caller publishes NotificationCreated once the batch has committed.
 */
export function notificationStatement(db: D1Database, notification: NewNotification): D1PreparedStatement {
  return db
    .prepare("INSERT INTO notifications (user_id, kind, actor_id, params, created_at) VALUES (?, ?, ?, ?, ?)")
    .bind(
      notification.userId,
      notification.kind,
      notification.actorId ?? null,
      JSON.stringify(notification.params ?? {}),
      isoNow(),
    );
}

/**
 * A notification for a batch that records it with what it reports, and, when push is on (`config`), the read of the devices
 * to push it to right after it in the same batch (one round trip less than the push adapter reading them after the
 * answer). `created(results)`, given the batch's results for `statements`, is the NotificationCreated to publish
 * once the batch has committed.
 */
export function notificationStatements(
  { db, config }: Pick<DomainContext, "db" | "config">,
  notification: NewNotification,
): { statements: D1PreparedStatement[]; created(results: D1Result[]): DomainEvent } {
  const push = pushIsOn(config);
  const statements = [
    notificationStatement(db, notification),
    ...(push ? [notificationPushStatement(db, notification.userId, notification.kind)] : []),
  ];
  return {
    statements,
    created: (results) => ({
      type: "NotificationCreated",
      userId: notification.userId,
      kind: notification.kind,
      ...(push && results[1] ? { pushJobs: pushJobsOf(results[1]) } : {}),
    }),
  };
}

/**
 * Like notificationStatements, for a notification that reports a row the statement just before these in the batch
 * may or may not have written (an `INSERT OR IGNORE`: a like given twice): it is recorded only if that statement
 * changed a row (SQLite's changes(): rows the last INSERT, UPDATE or DELETE wrote itself, not its triggers), and
 * `created(results)` is null when it was not.
 */
export function notificationStatementsIfChanged(
  { db, config }: Pick<DomainContext, "db" | "config">,
  notification: NewNotification & {
    /** Params computed by SQL in the batch instead of `params` (a JSON object expression: the new row's id). */
    paramsSql?: { sql: string; binds: unknown[] };
  },
): { statements: D1PreparedStatement[]; created(results: D1Result[]): DomainEvent | null } {
  const push = pushIsOn(config);
  const params = notification.paramsSql ?? { sql: "?", binds: [JSON.stringify(notification.params ?? {})] };
  const insert = db
    .prepare(
      `INSERT INTO notifications (user_id, kind, actor_id, params, created_at) SELECT ?, ?, ?, ${params.sql}, ? WHERE changes() = 1`,
    )
    .bind(notification.userId, notification.kind, notification.actorId ?? null, ...params.binds, isoNow());
  const statements = [insert, ...(push ? [notificationPushStatement(db, notification.userId, notification.kind)] : [])];
  return {
    statements,
    created: (results) =>
      (results[0]?.meta.changes ?? 0) === 0
        ? null
        : {
            type: "NotificationCreated",
            userId: notification.userId,
            kind: notification.kind,
            ...(push && results[1] ? { pushJobs: pushJobsOf(results[1]) } : {}),
          },
  };
}

/** Settings → Notifications → "Send me a test notification": checks that badges and pushes reach this device. */
export async function sendTestNotification(ctx: DomainContext, userId: number): Promise<number> {
  await new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE).hit(
    `test-notification:user:${userId}`,
    LIMITS.testNotificationsPerAccount,
  );
  return createNotification(ctx, { userId, kind: "test" });
}

interface NotificationRow {
  id: number;
  kind: NotificationKind;
  params: string;
  read_at: string | null;
  created_at: string;
  actor_username: string | null;
  actor_name: string | null;
  actor_avatar_key: string | null;
  /** 1 for a stream's notification once the stream is no longer live. */
  stream_ended: number;
}

/** Newest first, a page at a time; `before` is the id of the last notification already shown. */
export async function listNotifications(
  db: D1Database,
  userId: number,
  before: number | null,
): Promise<NotificationView[]> {
  const { results } = await db
    .prepare(
      `SELECT n.id, n.kind, n.params, n.read_at, n.created_at,
              a.username AS actor_username, a.name AS actor_name, a.avatar_key AS actor_avatar_key,
              n.kind = 'live' AND NOT EXISTS (SELECT 1 FROM live_streams s WHERE s.id = json_extract(n.params, '$.streamId') AND s.status = 'live') AS stream_ended
       FROM notifications n LEFT JOIN users a ON a.id = n.actor_id
       WHERE n.user_id = ?1 AND n.id < ?2
       ORDER BY n.id DESC LIMIT ?3`,
    )
    .bind(userId, before ?? Number.MAX_SAFE_INTEGER, NOTIFICATION_PAGE_SIZE)
    .all<NotificationRow>();
  return results.map((row) => ({
    id: row.id,
    kind: row.kind,
    // A stream's notification says whether it has ended since ("was live", no Watch): `ended` is 1 then.
    params: {
      ...(JSON.parse(row.params) as Record<string, string | number>),
      ...(row.stream_ended ? { ended: 1 } : {}),
    },
    actor: row.actor_username
      ? { username: row.actor_username, name: row.actor_name ?? "", avatarUrl: publicMediaUrl(row.actor_avatar_key) }
      : null,
    read: row.read_at !== null,
    createdAt: row.created_at,
  }));
}

/** Opening the notifications screen reads them all; the user's other tabs drop their badge. */
export async function markNotificationsRead(
  ctx: Pick<DomainContext, "db" | "publish">,
  userId: number,
): Promise<number> {
  const result = await ctx.db
    .prepare("UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL")
    .bind(isoNow(), userId)
    .run();
  const changed = result.meta.changes ?? 0;
  if (changed > 0) ctx.publish({ type: "UpdatesChanged", userIds: [userId] });
  return changed;
}
