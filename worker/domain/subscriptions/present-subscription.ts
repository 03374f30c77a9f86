import { publicMediaUrl } from "../accounts/users";
import type { Period } from "./periods";
import type { SubscriptionStatus, SubscriptionView, SubscriptionListItem } from "@shared/contracts/subscriptions";
export { type SubscriptionView, type SubscriptionListItem };

export interface SubscriptionRow {
  id: number;
  fan_id: number;
  creator_id: number;
  period: Period;
  price_cents: number;
  status: SubscriptionStatus;
  started_at: string;
  current_period_end: string;
  cancelled_at: string | null;
  ended_at: string | null;
}

export const presentSubscription = (row: SubscriptionRow): SubscriptionView => ({
  id: row.id,
  period: row.period,
  priceCents: row.price_cents,
  status: row.status,
  startedAt: row.started_at,
  currentPeriodEnd: row.current_period_end,
  cancelledAt: row.cancelled_at,
  endedAt: row.ended_at,
});

/** The fan's live (active or cancelled) subscription to a creator, if any (none for a visitor). */
export const liveSubscriptionStatement = (db: D1Database, fanId: number | null, creatorId: number) =>
  db
    .prepare("SELECT * FROM subscriptions WHERE fan_id = ? AND creator_id = ? AND status IN ('active', 'cancelled')")
    .bind(fanId, creatorId);

export const findLiveSubscription = (db: D1Database, fanId: number, creatorId: number) =>
  liveSubscriptionStatement(db, fanId, creatorId).first<SubscriptionRow>();

export const presentSubscriptionListItem = (
  row: SubscriptionRow & { username: string; name: string; avatar_key: string | null },
): SubscriptionListItem => ({
  ...presentSubscription(row),
  creator: { username: row.username, name: row.name, avatarUrl: publicMediaUrl(row.avatar_key) },
});
