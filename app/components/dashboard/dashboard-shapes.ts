// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { EarningsOverview, PayoutPage } from "@shared/contracts/money";
import type { FanPage } from "@shared/contracts/subscriptions";
import type { CreatorOffers } from "@shared/contracts/offers";
import { array, boolean, nullable, number, object, oneOf, string, type Shape } from "@shared/shape";

export const earningsOverviewShape: Shape<EarningsOverview> = object({
  totals: object({
    today: object({ subscription: number, tip: number, post: number, message: number, live: number, total: number }),
    last7Days: object({
      subscription: number,
      tip: number,
      post: number,
      message: number,
      live: number,
      total: number,
    }),
    last30Days: object({
      subscription: number,
      tip: number,
      post: number,
      message: number,
      live: number,
      total: number,
    }),
  }),
  days: array(object({ date: string, subscription: number, tip: number, post: number, message: number, live: number })),
  pendingCents: number,
  availableCents: number,
  releases: array(object({ date: string, cents: number })),
  feePercent: number,
});

export const payoutPageShape: Shape<PayoutPage> = object({
  payouts: array(
    object({
      id: number,
      amountCents: number,
      status: oneOf("requested", "paid", "rejected"),
      method: oneOf("paypal", "bank"),
      destination: string,
      rejectionReason: nullable(string),
      createdAt: string,
      decidedAt: nullable(string),
    }),
  ),
  nextCursor: nullable(number),
});

export const fanPageShape: Shape<FanPage> = object({
  fans: array(
    object({
      userId: number,
      username: string,
      name: string,
      avatarUrl: string,
      since: string,
      period: nullable(oneOf("week", "month", "year")),
      priceCents: nullable(number),
      bundleMonths: nullable(number),
    }),
  ),
  nextCursor: nullable(string),
});

export const creatorOffersShape: Shape<CreatorOffers> = object({
  promotions: array(
    object({
      claims: number,
      stillSubscribed: number,
      revenueCents: number,
      id: number,
      percentOff: number,
      trialDays: nullable(number),
      audience: oneOf("new", "expired", "both"),
      periods: number,
      claimLimit: nullable(number),
      endsAt: string,
      endedAt: nullable(string),
      running: boolean,
      createdAt: string,
    }),
  ),
  trialLinks: array(
    object({
      claims: number,
      stillSubscribed: number,
      revenueCents: number,
      id: number,
      code: string,
      days: number,
      claimLimit: nullable(number),
      endsAt: string,
      endedAt: nullable(string),
      running: boolean,
      createdAt: string,
    }),
  ),
  retention: nullable(
    object({
      claims: number,
      stillSubscribed: number,
      revenueCents: number,
      id: number,
      percentOff: number,
      periods: number,
    }),
  ),
});
