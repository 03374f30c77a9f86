import type { SubscribeInput } from "@shared/contracts/subscription-bodies";
import { discountedCents } from "@shared/offer-prices";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { payFromWallet } from "../money/payments";
import { clientKey, KEY_NEEDED } from "../money/rules";
import { notificationStatements, notificationStatementsIfChanged } from "../notifications/notifications";
import {
  claimRefusal,
  claimStatement,
  closedReason,
  fanHistoryStatement,
  OFFER_ENDED,
  OFFER_NOT_FOR_YOU,
  TRIAL_ALREADY_HAD,
  TRIAL_FOR_NEW_FANS,
  type OfferRow,
} from "../offers/fan-offers";
import { findCounterpart } from "../profiles/find-member";
import { AppError, fieldError, PriceChangedError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { sendWelcomeMessageSoon } from "../welcome-messages/send-welcome-messages";
import { bookedWelcome, welcomeDeliveryStatement } from "../welcome-messages/welcome-delivery-statement";
import { firstRow, readTogether } from "../shared/reads";
import { addDays, addPlanPeriod, type Period } from "./periods";
import { planPriceOf, planPriceStatement, type PlanChoice, type PlanPriceRow } from "./plan-prices";
import {
  findLiveSubscription,
  liveSubscriptionStatement,
  presentSubscription,
  type SubscriptionRow,
  type SubscriptionView,
} from "./present-subscription";

const PLAN_NOT_OFFERED = message("This creator does not offer this plan.");
/** The live-row unique index refused a second subscription: a concurrent request won. */
const ALREADY_SUBSCRIBED = message("You are already subscribed to this creator.");
const PROMOTION_NOT_FOR_BUNDLES = message("This promotion is for the monthly, weekly and yearly plans, not bundles.");

type Ctx = Pick<DomainContext, "db" | "publish" | "config" | "defer">;

/**
 * Subscribes the fan to the creator named `username` on the plan chosen (a period, or a bundle of months):
 * - already active: nothing changes (idempotent);
 * - cancelled (or a gift) but still running: reactivated, on the plan it had, without a charge;
 * - otherwise a new subscription, plus a follow so the creator's posts reach the timeline. The price is the
 *   server's: the plan's (or bundle's), the claimed promotion's, or nothing now for a free trial (a trial link's
 *   code, or a 100% promotion), which the renewal job charges at the plan's price when the trial ends. It must be
 *   the price the fan was shown (`priceCents`, absent: free), else nothing happens (PriceChangedError). A paid
 *   first period is charged from the wallet in the batch that writes the subscription and the offer's claim, so a
 *   claim past the offer's limit or end undoes the payment too. A new subscription (a trial too) books the
 *   creator's welcome message in the same batch, sent right after the answer.
 */
export async function subscribe(
  ctx: Ctx,
  fan: UserRow,
  username: string,
  input: SubscribeInput,
): Promise<SubscriptionView> {
  const { db } = ctx;
  const creator = await findCounterpart(db, username, fan.id, message("You cannot subscribe to yourself."));
  const now = isoNow();
  const plan: PlanChoice = { period: input.period, bundleMonths: input.bundleMonths ?? null };
  const offerRead = (kind: "promotion" | "trial", column: "id" | "code", value: unknown) =>
    firstRow<OfferRow>(
      value === undefined
        ? db.prepare("SELECT NULL WHERE 0")
        : db
            .prepare(`SELECT * FROM offers WHERE creator_id = ? AND kind = ? AND ${column} = ?`)
            .bind(creator.id, kind, value),
    );
  // The plan's price, the offer claimed and what the fan has had here are read with the live subscription.
  const [live, priceRow, promotion, trialLink, history] = await readTogether(db, [
    firstRow<SubscriptionRow>(liveSubscriptionStatement(db, fan.id, creator.id)),
    firstRow<PlanPriceRow>(planPriceStatement(db, creator.id, plan)),
    offerRead("promotion", "id", input.promotionId),
    offerRead("trial", "code", input.trialCode?.toLowerCase()),
    firstRow<{ subscribed: number; had_trial: number }>(fanHistoryStatement(db, creator.id, fan.id)),
  ]);
  if (live && live.current_period_end > now) {
    if (live.status === "active") return presentSubscription(live);
    const reactivated = await db
      .prepare(
        // A gift resumed is the member's own from now on: it renews on their wallet, like any subscription.
        "UPDATE subscriptions SET status = 'active', cancelled_at = NULL, gifted_by = NULL WHERE id = ? AND status = 'cancelled' RETURNING *",
      )
      .bind(live.id)
      .first<SubscriptionRow>();
    return presentSubscription(reactivated ?? live);
  }
  if (live) {
    // Past its end, not yet expired by the cron. Expire it only as it was read: if the cron renewed it meanwhile
    // (the fan paid for the next period), that renewed subscription is the answer, not a second charge.
    const ended = await db
      .prepare(
        "UPDATE subscriptions SET status = 'expired', ended_at = current_period_end WHERE id = ? AND status IN ('active', 'cancelled') AND current_period_end = ? RETURNING id",
      )
      .bind(live.id, live.current_period_end)
      .first();
    const current = ended ? null : await findLiveSubscription(db, fan.id, creator.id);
    if (current && current.current_period_end > now && current.status === "active") return presentSubscription(current);
  }

  // A member who used to be a creator may still have plan rows: only creators take subscribers.
  const regular = creator.role === "creator" ? planPriceOf(priceRow, plan) : null;
  if (regular === null) throw fieldError("period", PLAN_NOT_OFFERED);
  const start = startOf({ fanId: fan.id, creatorId: creator.id, plan, regular, now }, input, {
    promotion,
    trialLink,
    subscribedBefore: history?.subscribed === 1,
    hadTrial: history?.had_trial === 1,
  });
  if (start.chargeCents !== (input.priceCents ?? 0)) throw new PriceChangedError(start.chargeCents);
  if (start.chargeCents > 0) return subscribePaid(ctx, fan, start, input);
  return subscribeFree(ctx, start);
}

interface NewSubscription {
  fanId: number;
  creatorId: number;
  plan: PlanChoice;
  /** The plan's regular price, what renewals charge once any offer is over. */
  regular: number;
  now: string;
}

interface Start extends NewSubscription {
  /** What is charged now. */
  chargeCents: number;
  end: string;
  trialEndsAt: string | null;
  offer: { id: number; percent: number; renewalsLeft: number; freeTrial: boolean } | null;
}

/** The first period as the offer claimed prices it; an offer that cannot be claimed by this fan is refused. */
function startOf(
  base: NewSubscription,
  input: SubscribeInput,
  found: { promotion: OfferRow | null; trialLink: OfferRow | null; subscribedBefore: boolean; hadTrial: boolean },
): Start {
  const plain = {
    ...base,
    chargeCents: base.regular,
    end: addPlanPeriod(base.now, base.plan),
    trialEndsAt: null,
    offer: null,
  };
  const freeTrial = (row: OfferRow): Start => {
    if (found.hadTrial) throw new AppError("conflict", TRIAL_ALREADY_HAD);
    const end = addDays(base.now, row.trial_days!);
    return {
      ...base,
      chargeCents: 0,
      end,
      trialEndsAt: end,
      offer: { id: row.id, percent: 100, renewalsLeft: 0, freeTrial: true },
    };
  };
  if (input.trialCode !== undefined) {
    const row = found.trialLink;
    if (!row) throw fieldError("trialCode", OFFER_ENDED);
    const closed = closedReason(row, base.now);
    if (closed) throw new AppError("conflict", closed);
    if (found.subscribedBefore && !found.hadTrial) throw new AppError("conflict", TRIAL_FOR_NEW_FANS);
    // A free plan has nothing to try: a claim there would only use up a place and the fan's one trial.
    if (base.regular === 0) throw new AppError("conflict", OFFER_NOT_FOR_YOU);
    return freeTrial(row);
  }
  if (input.promotionId !== undefined) {
    const row = found.promotion;
    if (!row) throw new AppError("conflict", OFFER_ENDED);
    const closed = closedReason(row, base.now);
    if (closed) throw new AppError("conflict", closed);
    if (base.plan.bundleMonths !== null) throw fieldError("bundleMonths", PROMOTION_NOT_FOR_BUNDLES);
    // A free plan has nothing to take off: a claim there would only use up a place.
    if (base.regular === 0) throw new AppError("conflict", OFFER_NOT_FOR_YOU);
    const audience = found.subscribedBefore ? "expired" : "new";
    if (row.audience !== "both" && row.audience !== audience) throw new AppError("conflict", OFFER_NOT_FOR_YOU);
    if (row.percent_off === 100) return freeTrial(row);
    return {
      ...plain,
      chargeCents: discountedCents(base.regular, row.percent_off),
      offer: { id: row.id, percent: row.percent_off, renewalsLeft: row.periods - 1, freeTrial: false },
    };
  }
  return plain;
}

const insertSubscription = (db: D1Database, start: Start, verb: "INSERT" | "INSERT OR IGNORE") =>
  db
    .prepare(
      `${verb} INTO subscriptions (fan_id, creator_id, period, bundle_months, price_cents, status, started_at, current_period_end,
         trial_ends_at, offer_id, offer_percent, offer_renewals_left)
       VALUES (?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .bind(
      start.fanId,
      start.creatorId,
      start.plan.period,
      start.plan.bundleMonths,
      start.regular,
      start.now,
      start.end,
      start.trialEndsAt,
      start.offer?.id ?? null,
      start.offer && start.offer.renewalsLeft > 0 ? start.offer.percent : 0,
      start.offer?.renewalsLeft ?? 0,
    );

const followStatement = (db: D1Database, fanId: number, creatorId: number, now: string) =>
  db
    .prepare("INSERT OR IGNORE INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?)")
    .bind(fanId, creatorId, now);

const claimOf = (db: D1Database, start: Start) =>
  start.offer
    ? [
        claimStatement(db, {
          offerId: start.offer.id,
          creatorId: start.creatorId,
          fanId: start.fanId,
          freeTrial: start.offer.freeTrial,
          now: start.now,
        }),
      ]
    : [];

const subscriptionNotice = (start: Start) => ({
  userId: start.creatorId,
  kind: "subscription" as const,
  actorId: start.fanId,
  params: { period: start.plan.period as Period },
});

/**
 * Nothing to charge now (a free plan, or a free trial). A free plan's concurrent requests settle on one row (the
 * unique live row, INSERT OR IGNORE) and notify once; a trial's claim needs its own subscription, so it inserts
 * plainly and the request that lost answers with the winner's row.
 */
async function subscribeFree(ctx: Ctx, start: Start): Promise<SubscriptionView> {
  const { db } = ctx;
  const notification = notificationStatementsIfChanged(ctx, subscriptionNotice(start));
  let results: D1Result[];
  try {
    results = await db.batch([
      insertSubscription(db, start, start.offer ? "INSERT" : "INSERT OR IGNORE"),
      ...notification.statements,
      ...claimOf(db, start),
      followStatement(db, start.fanId, start.creatorId, start.now),
      welcomeDeliveryStatement(db, start.fanId, start.creatorId, start.now),
    ]);
  } catch (error) {
    const refusal = claimRefusal(error);
    if (refusal) throw refusal;
    if (!String(error).includes("subscriptions.fan_id")) throw error;
    results = [];
  }
  const row = results[0]?.results[0] as SubscriptionRow | undefined;
  if (!row) {
    const winner = await findLiveSubscription(db, start.fanId, start.creatorId);
    if (!winner) throw new AppError("conflict", ALREADY_SUBSCRIBED);
    return presentSubscription(winner);
  }
  const event = notification.created(results.slice(1, 1 + notification.statements.length));
  if (event) ctx.publish(event);
  sendWelcomeMessageSoon(ctx, bookedWelcome(results.at(-1)!));
  return presentSubscription(row);
}

/**
 * A paid first period: the payment, the subscription (linked to it), the claim of the offer that priced it, the
 * follow and the creator's notification in one batch. A second subscription cannot slip in: the unique live row
 * refuses it, and the request that lost answers with the one that won (a replayed key does the same through its
 * payment).
 */
async function subscribePaid(ctx: Ctx, fan: UserRow, start: Start, input: SubscribeInput): Promise<SubscriptionView> {
  const { db } = ctx;
  if (!input.idempotencyKey) throw fieldError("idempotencyKey", KEY_NEEDED);
  const notification = notificationStatements(ctx, subscriptionNotice(start));
  try {
    const outcome = await payFromWallet(db, {
      payer: fan,
      creatorId: start.creatorId,
      kind: "subscription",
      amountCents: start.chargeCents,
      idempotencyKey: clientKey(input.idempotencyKey),
      request: { period: start.plan.period, bundleMonths: start.plan.bundleMonths, promotionId: input.promotionId },
      offerId: start.offer?.id ?? null,
      feePercent: ctx.config.PLATFORM_FEE_PERCENT,
      effects: (payment) => [
        ...notification.statements,
        insertSubscription(db, start, "INSERT"),
        db
          .prepare(
            `UPDATE payments SET subscription_id = (SELECT id FROM subscriptions WHERE fan_id = ? AND creator_id = ? AND status = 'active') WHERE id = ${payment.sql}`,
          )
          .bind(start.fanId, start.creatorId, ...payment.binds),
        ...claimOf(db, start),
        followStatement(db, start.fanId, start.creatorId, start.now),
        welcomeDeliveryStatement(db, start.fanId, start.creatorId, start.now),
      ],
      refusal: (error) =>
        String(error).includes("subscriptions.fan_id")
          ? new AppError("conflict", ALREADY_SUBSCRIBED)
          : claimRefusal(error),
    });
    if (outcome.replayed) {
      const paid = await db
        .prepare("SELECT * FROM subscriptions WHERE id = ? AND fan_id = ?")
        .bind(outcome.payment.subscription_id, fan.id)
        .first<SubscriptionRow>();
      if (paid) return presentSubscription(paid);
    } else {
      ctx.publish(notification.created(outcome.effects));
      sendWelcomeMessageSoon(ctx, bookedWelcome(outcome.effects.at(-1)!));
      // The subscription the batch created comes back from its INSERT: nothing to read again.
      return presentSubscription(outcome.effects[notification.statements.length]!.results[0] as SubscriptionRow);
    }
  } catch (error) {
    if (!(error instanceof AppError && error.message === ALREADY_SUBSCRIBED)) throw error;
  }
  const winner = await findLiveSubscription(db, fan.id, start.creatorId);
  if (!winner) throw new AppError("conflict", ALREADY_SUBSCRIBED);
  return presentSubscription(winner);
}
