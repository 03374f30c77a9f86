import { publicMediaUrl } from "../accounts/users";
import type { Period } from "./periods";

export type SubscriptionStatus = "active" | "cancelled" | "expired";

/** A subscription as its fan sees it (spec §6: plan, start date, renewal date, status). */
export interface SubscriptionView {
  id: number;
  period: Period;
  priceCents: number;
  status: SubscriptionStatus;
  startedAt: string;
  /** The renewal date while active; the end of the entitlement once cancelled. */
  currentPeriodEnd: string;
  cancelledAt: string | null;
  endedAt: string | null;
}

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
  db.prepare("SELECT * FROM subscriptions WHERE fan_id = ? AND creator_id = ? AND status IN ('active', 'cancelled')").bind(fanId, creatorId);

export const findLiveSubscription = (db: D1Database, fanId: number, creatorId: number) => liveSubscriptionStatement(db, fanId, creatorId).first<SubscriptionRow>();

export interface SubscriptionListItem extends SubscriptionView {
  creator: { username: string; name: string; avatarUrl: string };
}

export const presentSubscriptionListItem = (row: SubscriptionRow & { username: string; name: string; avatar_key: string | null }): SubscriptionListItem => ({
  ...presentSubscription(row),
  creator: { username: row.username, name: row.name, avatarUrl: publicMediaUrl(row.avatar_key) },
});
