// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { GiftAnswer, RetentionOffer } from "@shared/contracts/offers";
import { nullable, number, object, string, type Shape } from "@shared/shape";

export const retentionOfferAnswerShape: Shape<{ offer: RetentionOffer | null }> = object({
  offer: nullable(object({ id: number, percentOff: number, periods: number })),
});

export const giftAnswerShape: Shape<GiftAnswer> = object({ recipient: string, months: number, endsAt: string });
