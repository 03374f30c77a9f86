import type { SubscriptionView } from "./present-subscription";

/** Takes the creator's retention offer instead of cancelling: the next renewals are discounted. */
export async function acceptRetentionOffer(db: D1Database, fanId: number, subscriptionId: number, offerId: number): Promise<SubscriptionView> {
  void db, fanId, subscriptionId, offerId;
  throw new Error("todo");
}
