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
  bundle_months: number | null;
  trial_ends_at: string | null;
  offer_id: number | null;
  offer_percent: number;
  offer_renewals_left: number;
  gifted_by: number | null;
  next_period: Period | null;
  next_bundle_months: number | null;
  next_price_cents: number | null;
  /** Read by the statements that join it (liveSubscriptionStatement, the fan's list): who gave it. */
  gifted_by_username?: string | null;
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
  bundleMonths: row.bundle_months,
  trialEndsAt: row.trial_ends_at,
  giftedBy: row.gifted_by === null ? null : (row.gifted_by_username ?? null),
  offerPercent: row.offer_renewals_left > 0 ? row.offer_percent : 0,
  offerRenewalsLeft: row.offer_renewals_left,
  nextPlan:
    row.next_period === null
      ? null
      : { period: row.next_period, bundleMonths: row.next_bundle_months, priceCents: row.next_price_cents ?? 0 },
});

/** The username of a gift's giver, for presentSubscription (`s` is the subscription). */
export const GIFTED_BY_USERNAME = "(SELECT username FROM users WHERE id = s.gifted_by) AS gifted_by_username";

/** The fan's live (active or cancelled) subscription to a creator, if any (none for a visitor). */
export const liveSubscriptionStatement = (db: D1Database, fanId: number | null, creatorId: number) =>
  db
    .prepare(
      `SELECT s.*, ${GIFTED_BY_USERNAME} FROM subscriptions s
       WHERE s.fan_id = ? AND s.creator_id = ? AND s.status IN ('active', 'cancelled')`,
    )
    .bind(fanId, creatorId);

export const findLiveSubscription = (db: D1Database, fanId: number, creatorId: number) =>
  liveSubscriptionStatement(db, fanId, creatorId).first<SubscriptionRow>();

export const presentSubscriptionListItem = (
  row: SubscriptionRow & { username: string; name: string; avatar_key: string | null },
): SubscriptionListItem => ({
  ...presentSubscription(row),
  creator: { username: row.username, name: row.name, avatarUrl: publicMediaUrl(row.avatar_key) },
});
