import type { FanKind } from "@shared/contracts/subscription-constants";
import type { FanPage, FanView } from "@shared/contracts/subscriptions";
import { publicMediaUrl } from "../accounts/users";
import { LIVE_SUBSCRIPTION_SQL, visibleMemberSql } from "../policies/members";
import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";
import { encodeCursor, type Cursor } from "../shared/cursor";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import type { Period } from "./periods";

const FANS_PAGE_SIZE = 20;

const ONLY_CREATORS_HAVE_FANS = message("Only creators have a dashboard.");

interface FanRow {
  user_id: number;
  username: string;
  name: string;
  avatar_key: string | null;
  since: string;
  /** The keyset's tie-breaker: the subscription id, or the follower id. */
  position: number;
  period: Period | null;
  price_cents: number | null;
  bundle_months: number | null;
}

/**
 * The statement of one page. ?1 is the creator (the viewer of visibleMemberSql: suspended members and blocked
 * pairs drop out), ?2 now (subscribers only), ?3 and ?4 the cursor's (since, position), ?5 the page size plus one. Each walks one index
 * in its order, newest first: subscriptions_creator_started (live subscriptions only; one whose paid period has run
 * out but the cron has not expired yet is left out by LIVE_SUBSCRIPTION_SQL) or follows_creator.
 */
export function fansPageSql(kind: FanKind, withCursor: boolean): string {
  if (kind === "subscribers") {
    return `SELECT u.id AS user_id, u.username, u.name, u.avatar_key, s.started_at AS since, s.id AS position, s.period, s.price_cents, s.bundle_months
      FROM subscriptions s INDEXED BY subscriptions_creator_started JOIN users u ON u.id = s.fan_id
      WHERE s.creator_id = ?1 AND ${LIVE_SUBSCRIPTION_SQL} ${withCursor ? "AND (s.started_at, s.id) < (?3, ?4)" : ""} AND ${visibleMemberSql("u")}
      ORDER BY s.started_at DESC, s.id DESC LIMIT ?5`;
  }
  return `SELECT u.id AS user_id, u.username, u.name, u.avatar_key, f.created_at AS since, f.follower_id AS position, NULL AS period, NULL AS price_cents, NULL AS bundle_months
    FROM follows f INDEXED BY follows_creator JOIN users u ON u.id = f.follower_id
    WHERE f.creator_id = ?1 ${withCursor ? "AND (f.created_at, f.follower_id) < (?3, ?4)" : ""} AND ${visibleMemberSql("u")}
    ORDER BY f.created_at DESC, f.follower_id DESC LIMIT ?5`;
}

/**
 * Dashboard → Fans and GET /api/me/fans: a creator's live subscribers or followers, newest first, one indexed
 * statement per keyset page. Members have no fans list (403).
 */
export async function listFans(db: D1Database, viewer: Viewer, kind: FanKind, cursor: Cursor | null): Promise<FanPage> {
  if (viewer.role !== "creator") throw new AppError("forbidden", ONLY_CREATORS_HAVE_FANS);
  const { results } = await db
    .prepare(fansPageSql(kind, cursor !== null))
    .bind(viewer.id, isoNow(), cursor?.at ?? null, cursor?.id ?? null, FANS_PAGE_SIZE + 1)
    .all<FanRow>();
  const page = results.slice(0, FANS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    fans: page.map(presentFan),
    nextCursor: results.length > FANS_PAGE_SIZE && last ? encodeCursor(last.since, last.position) : null,
  };
}

const presentFan = (row: FanRow): FanView => ({
  userId: row.user_id,
  username: row.username,
  name: row.name,
  avatarUrl: publicMediaUrl(row.avatar_key),
  since: row.since,
  period: row.period,
  priceCents: row.price_cents,
  bundleMonths: row.bundle_months,
});
