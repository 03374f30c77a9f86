import { message } from "@shared/messages";
import { claimRefusal, OFFER_ENDED, retentionOfferStatement, type OfferRow } from "../offers/fan-offers";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { presentSubscription, type SubscriptionRow, type SubscriptionView } from "./present-subscription";

const NOT_FOUND = message("This subscription does not exist.");

/**
 * Takes the creator's retention offer instead of cancelling: the next `periods` renewals are `percentOff` cheaper
 * and the subscription keeps renewing. The offer must still be the one shown and open to this subscription
 * (retentionOfferFor's rules); the claim and the discount are written together, once per fan and offer.
 */
export async function acceptRetentionOffer(
  db: D1Database,
  fanId: number,
  subscriptionId: number,
  offerId: number,
): Promise<SubscriptionView> {
  const now = isoNow();
  const offer = await retentionOfferStatement(db, fanId, subscriptionId, now).first<OfferRow>();
  if (!offer || offer.id !== offerId) {
    const exists = await db
      .prepare("SELECT 1 FROM subscriptions WHERE id = ? AND fan_id = ?")
      .bind(subscriptionId, fanId)
      .first();
    throw exists ? new AppError("conflict", OFFER_ENDED) : new AppError("not_found", NOT_FOUND);
  }
  try {
    // The discount first, then its claim only if the discount was written: a subscription that changed since it was
    // read gets neither; a second acceptance (a replay, a race) is refused by the claim's unique key, undoing both.
    const [updated] = await db.batch([
      db
        .prepare(
          `UPDATE subscriptions SET offer_id = ?, offer_percent = ?, offer_renewals_left = ?
           WHERE id = ? AND fan_id = ? AND status = 'active' AND offer_renewals_left = 0 RETURNING *`,
        )
        .bind(offerId, offer.percent_off, offer.periods, subscriptionId, fanId),
      db
        .prepare(
          `INSERT INTO offer_claims (offer_id, creator_id, fan_id, subscription_id, free_trial, claimed_at)
           SELECT ?1, creator_id, fan_id, id, 0, ?2 FROM subscriptions WHERE id = ?3 AND offer_id = ?1 AND offer_renewals_left = ?4`,
        )
        .bind(offerId, now, subscriptionId, offer.periods),
    ]);
    const row = updated!.results[0] as SubscriptionRow | undefined;
    if (!row) throw new AppError("conflict", OFFER_ENDED);
    return presentSubscription(row);
  } catch (error) {
    throw claimRefusal(error) ?? error;
  }
}
