import type { PromotionOffer, RetentionOffer, TrialOffer } from "@shared/contracts/offers";
import { TRIAL_CODE_PATTERN } from "@shared/contracts/offer-constants";
import { message } from "@shared/messages";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";

export const OFFER_ENDED = message("This offer has ended.");
const OFFER_ALL_CLAIMED = message("Every place of this offer has been claimed.");
const OFFER_ALREADY_CLAIMED = message("You have already used this offer.");
export const TRIAL_ALREADY_HAD = message("You have already had a free trial with this creator.");
export const TRIAL_FOR_NEW_FANS = message("Free trials are for fans who have never subscribed to this creator.");
export const OFFER_NOT_FOR_YOU = message("This offer is not for you.");

/** An offer as stored (migration 0020). */
export interface OfferRow {
  id: number;
  creator_id: number;
  kind: "promotion" | "trial" | "retention";
  percent_off: number;
  trial_days: number | null;
  audience: "new" | "expired" | "both" | null;
  periods: number;
  code: string | null;
  claim_limit: number | null;
  claims: number;
  ends_at: string | null;
  ended_at: string | null;
  created_at: string;
}

/** Which promotions a fan belongs to: never subscribed to the creator, or subscribed before (none live now). */
const audienceSql = (fan: string, creator: string) =>
  `CASE WHEN EXISTS (SELECT 1 FROM subscriptions s WHERE s.fan_id = ${fan} AND s.creator_id = ${creator}) THEN 'expired' ELSE 'new' END`;

/**
 * The running promotion `?2` (null: a visitor, who counts as new) may claim from creator `?1` at `?3`: for their
 * audience, with places left, not claimed by them; a free one only if they have not had a free trial here.
 */
export const promotionStatement = (db: D1Database, creatorId: number, viewerId: number | null, now = isoNow()) =>
  db
    .prepare(
      `SELECT o.* FROM offers o
       WHERE o.creator_id = ?1 AND o.kind = 'promotion' AND o.ended_at IS NULL AND o.ends_at > ?3
         AND (o.claim_limit IS NULL OR o.claims < o.claim_limit)
         AND o.audience IN ('both', ${audienceSql("?2", "?1")})
         AND NOT EXISTS (SELECT 1 FROM offer_claims c WHERE c.offer_id = o.id AND c.fan_id = ?2)
         AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.fan_id = ?2 AND s.creator_id = ?1 AND s.status IN ('active', 'cancelled'))
         AND (o.trial_days IS NULL OR NOT EXISTS (SELECT 1 FROM offer_claims c WHERE c.creator_id = ?1 AND c.fan_id = ?2 AND c.free_trial = 1))
       ORDER BY o.id DESC LIMIT 1`,
    )
    .bind(creatorId, viewerId, now);

export const presentPromotionOffer = (row: OfferRow): PromotionOffer => ({
  id: row.id,
  percentOff: row.percent_off,
  trialDays: row.trial_days,
  periods: row.periods,
  endsAt: row.ends_at!,
  claimsLeft: row.claim_limit === null ? null : row.claim_limit - row.claims,
});

/** Why an offer row cannot be claimed now, or null when it can (its limit and end; not who claims it). */
export function closedReason(row: OfferRow, now = isoNow()): string | null {
  if (row.ended_at !== null || (row.ends_at !== null && row.ends_at <= now)) return OFFER_ENDED;
  if (row.claim_limit !== null && row.claims >= row.claim_limit) return OFFER_ALL_CLAIMED;
  return null;
}

/** What a fan has had with a creator, for the trial's rule: any subscription, and a free trial claimed. */
export const fanHistoryStatement = (db: D1Database, creatorId: number, fanId: number | null) =>
  db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM subscriptions WHERE fan_id = ?2 AND creator_id = ?1) AS subscribed,
              EXISTS (SELECT 1 FROM offer_claims WHERE creator_id = ?1 AND fan_id = ?2 AND free_trial = 1) AS had_trial`,
    )
    .bind(creatorId, fanId);

/**
 * The trial link `code` of the creator as this viewer may use it: the offer, or the translated reason it cannot be
 * used (ended, all claimed, already subscribed or had a trial with this creator). A visitor sees the offer.
 */
export async function trialOfferFor(
  db: D1Database,
  creatorId: number,
  code: string,
  viewerId: number | null,
): Promise<{ trial: TrialOffer | null; refusal: string | null }> {
  if (!TRIAL_CODE_PATTERN.test(code)) return { trial: null, refusal: OFFER_ENDED };
  const [link, history] = await db.batch([
    db.prepare("SELECT * FROM offers WHERE creator_id = ? AND kind = 'trial' AND code = ?").bind(creatorId, code),
    fanHistoryStatement(db, creatorId, viewerId),
  ]);
  const row = link!.results[0] as OfferRow | undefined;
  if (!row) return { trial: null, refusal: OFFER_ENDED };
  const closed = closedReason(row);
  if (closed) return { trial: null, refusal: closed };
  const had = history!.results[0] as { subscribed: number; had_trial: number };
  if (had.had_trial) return { trial: null, refusal: TRIAL_ALREADY_HAD };
  if (had.subscribed) return { trial: null, refusal: TRIAL_FOR_NEW_FANS };
  return { trial: { code: row.code!, days: row.trial_days!, endsAt: row.ends_at! }, refusal: null };
}

/**
 * The creator's retention offer, when the fan's subscription may take it: active and paid, past any free trial,
 * not already discounted, not given as a gift, and this offer not taken before.
 */
export async function retentionOfferFor(
  db: D1Database,
  fanId: number,
  subscriptionId: number,
): Promise<RetentionOffer | null> {
  const row = await retentionOfferStatement(db, fanId, subscriptionId).first<OfferRow>();
  return row ? { id: row.id, percentOff: row.percent_off, periods: row.periods } : null;
}

export const retentionOfferStatement = (db: D1Database, fanId: number, subscriptionId: number, now = isoNow()) =>
  db
    .prepare(
      `SELECT o.* FROM subscriptions s JOIN offers o ON o.creator_id = s.creator_id AND o.kind = 'retention' AND o.ended_at IS NULL
       WHERE s.id = ?1 AND s.fan_id = ?2 AND s.status = 'active' AND s.price_cents > 0 AND s.offer_renewals_left = 0
         AND s.gifted_by IS NULL AND (s.trial_ends_at IS NULL OR s.trial_ends_at <= ?3)
         AND NOT EXISTS (SELECT 1 FROM offer_claims c WHERE c.offer_id = o.id AND c.fan_id = ?2)`,
    )
    .bind(subscriptionId, fanId, now);

/** The database's refusal of a claim (migration 0020's triggers, CHECK and unique indexes) as the fan's error. */
export function claimRefusal(error: unknown): AppError | null {
  const text = String(error instanceof Error ? error.message : error);
  if (text.includes("offer: not running")) return new AppError("conflict", OFFER_ENDED);
  if (text.includes("offers_claim_limit")) return new AppError("conflict", OFFER_ALL_CLAIMED);
  if (text.includes("offer_claims.creator_id, offer_claims.fan_id")) return new AppError("conflict", TRIAL_ALREADY_HAD);
  if (text.includes("offer_claims.offer_id, offer_claims.fan_id"))
    return new AppError("conflict", OFFER_ALREADY_CLAIMED);
  return null;
}

/** A claim of `offerId` by the fan, on their live subscription to the creator, written in the batch that made it. */
export const claimStatement = (
  db: D1Database,
  claim: { offerId: number; creatorId: number; fanId: number; freeTrial: boolean; now: string },
) =>
  db
    .prepare(
      `INSERT INTO offer_claims (offer_id, creator_id, fan_id, subscription_id, free_trial, claimed_at)
       VALUES (?1, ?2, ?3, (SELECT id FROM subscriptions WHERE fan_id = ?3 AND creator_id = ?2 AND status IN ('active', 'cancelled')), ?4, ?5)`,
    )
    .bind(claim.offerId, claim.creatorId, claim.fanId, claim.freeTrial ? 1 : 0, claim.now);
