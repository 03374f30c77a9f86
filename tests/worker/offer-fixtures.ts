import { env } from "cloudflare:test";
import { expect } from "vitest";
import { nowMs, setClockForTests } from "@shared/clock";
import type { CreatorOffers } from "@shared/contracts/offers";
import type { SubscriptionView } from "@shared/contracts/subscriptions";
import { auditLedger, balancesOf } from "../../worker/domain/money/ledger";
import { api, postJson } from "./factories";
import { createFan, createVerifiedCreator, fundWallet } from "./money-fixtures";

/** Seeds and helpers for the offers' tests (bundles, promotions, trial links, gifts, plan changes, retention). */

export type Member = Awaited<ReturnType<typeof createFan>>;

const DAY_MS = 24 * 3_600_000;

/** An instant `days` days from now on the shared clock (negative: before), as the API writes dates. */
export const inDays = (days: number, from = nowMs()) => new Date(from + days * DAY_MS).toISOString();

/**
 * Lets the clock run again after a test moved it months ahead to run the cron: sessions are valid by the same
 * clock, so the API answers 401 to tokens made "months ago".
 */
export const letClockRun = () => setClockForTests(env, null);

/** A verified creator with these plans and bundles (bundles need the monthly plan). */
export async function creatorWith(
  plans: { period: "week" | "month" | "year"; priceCents: number }[],
  bundles: { months: 3 | 6 | 12; discountPercent: number }[] = [],
) {
  const creator = await createVerifiedCreator();
  const set = await api("/me/plans", { method: "PUT", token: creator.token, body: JSON.stringify({ plans }) });
  expect(set.status).toBe(200);
  if (bundles.length > 0) {
    const offered = await api("/me/bundles", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ bundles }),
    });
    expect(offered.status).toBe(200);
  }
  return creator;
}

/** A verified fan with `cents` in the wallet (none: an empty wallet). */
export async function fundedFan(cents: number): Promise<Member> {
  const fan = await createFan();
  if (cents > 0) await fundWallet(fan.user.userId, cents);
  return fan;
}

export const subscribe = (username: string, body: unknown, token: string, headers?: HeadersInit) =>
  postJson(`/users/${username}/subscribe`, body, { token, headers });

export const subscribed = async (response: Response): Promise<SubscriptionView> => {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as SubscriptionView;
};

/** Starts a promotion (endsAt: in 10 days unless given) and answers its id. */
export async function startPromotion(token: string, body: Record<string, unknown>): Promise<number> {
  const response = await postJson("/me/promotions", { endsAt: inDays(10), ...body }, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  const offers = (await response.json()) as CreatorOffers;
  return Math.max(...offers.promotions.map((promotion) => promotion.id));
}

/** Makes a trial link and answers it as the creator's offers list it. */
export async function makeTrialLink(token: string, body: Record<string, unknown>) {
  const response = await postJson("/me/trial-links", { endsAt: inDays(10), ...body }, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  const offers = (await response.json()) as CreatorOffers;
  return offers.trialLinks.reduce((newest, link) => (link.id > newest.id ? link : newest));
}

export const creatorOffers = async (token: string) => {
  const response = await api("/me/offers", { token });
  expect(response.status).toBe(200);
  return (await response.json()) as CreatorOffers;
};

export const countOf = (sql: string, ...binds: unknown[]) =>
  env.DB.prepare(`SELECT COUNT(*) AS n FROM ${sql}`)
    .bind(...binds)
    .first<number>("n");

export interface PaymentRecord {
  id: number;
  kind: string;
  amount_cents: number;
  subscription_id: number | null;
  offer_id: number | null;
  gift_for_id: number | null;
  created_at: string;
}

/** The fan's subscription payments (first charges and renewals), oldest first. */
export const paymentsOf = async (fanId: number) =>
  (
    await env.DB.prepare(
      "SELECT id, kind, amount_cents, subscription_id, offer_id, gift_for_id, created_at FROM payments WHERE user_id = ? AND kind IN ('subscription', 'renewal') ORDER BY id",
    )
      .bind(fanId)
      .all<PaymentRecord>()
  ).results;

export interface SubscriptionRecord {
  id: number;
  status: string;
  period: string;
  bundle_months: number | null;
  price_cents: number;
  current_period_end: string;
  ended_at: string | null;
  trial_ends_at: string | null;
  offer_id: number | null;
  offer_percent: number;
  offer_renewals_left: number;
  gifted_by: number | null;
  next_period: string | null;
  next_bundle_months: number | null;
  next_price_cents: number | null;
}

export const subscriptionRow = (id: number) =>
  env.DB.prepare("SELECT * FROM subscriptions WHERE id = ?").bind(id).first<SubscriptionRecord>();

export const walletOf = async (userId: number) => (await balancesOf(env.DB, userId)).wallet;

/** The books balance: every test file of offers ends with this. */
export async function expectCleanLedger() {
  expect(await auditLedger(env.DB)).toEqual({
    unbalancedTransfers: 0,
    openTransfers: 0,
    negativeAccounts: 0,
    driftedAccounts: 0,
    totalCents: 0,
  });
}
