import type { PromotionInput, RetentionInput, TrialLinkInput } from "@shared/contracts/offer-bodies";
import type { CreatorOffers } from "@shared/contracts/offers";

type Creator = { id: number; role: string };

/** Dashboard → Promotions: every promotion and trial link, running first, with their figures; the retention offer. */
export async function getCreatorOffers(db: D1Database, creatorId: number): Promise<CreatorOffers> {
  void db, creatorId;
  throw new Error("todo");
}

/** Starts a promotion; at most one runs per audience. */
export async function createPromotion(db: D1Database, user: Creator, input: PromotionInput): Promise<CreatorOffers> {
  void db, user, input;
  throw new Error("todo");
}

/** Makes a free-trial link (a code made up when none is given). */
export async function createTrialLink(db: D1Database, user: Creator, input: TrialLinkInput): Promise<CreatorOffers> {
  void db, user, input;
  throw new Error("todo");
}

/** Ends a promotion or trial link now (early); ending it again changes nothing. */
export async function endOffer(db: D1Database, user: Creator, offerId: number): Promise<CreatorOffers> {
  void db, user, offerId;
  throw new Error("todo");
}

/** Turns the retention offer on (with these terms) or off. */
export async function setRetentionOffer(db: D1Database, user: Creator, input: RetentionInput): Promise<CreatorOffers> {
  void db, user, input;
  throw new Error("todo");
}
