import type { GiftInput } from "@shared/contracts/offer-bodies";
import { giftPriceCents } from "@shared/offer-prices";
import { message } from "@shared/messages";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { payFromWallet } from "../money/payments";
import { clientKey } from "../money/rules";
import { notificationStatements } from "../notifications/notifications";
import { bundlesStatement, type BundleRow } from "../offers/bundles";
import { blockedEitherWaySql } from "../policies/members";
import { counterpartRead, findCounterpart } from "../profiles/find-member";
import { AppError, fieldError, PriceChangedError } from "../shared/errors";
import { allRows, firstRow, readTogether } from "../shared/reads";
import { isoNow } from "../shared/time";
import { sendWelcomeMessageSoon } from "../welcome-messages/send-welcome-messages";
import { bookedWelcome, welcomeDeliveryStatement } from "../welcome-messages/welcome-delivery-statement";
import { addMonths } from "./periods";
import type { SubscriptionRow } from "./present-subscription";

const OWN_SUBSCRIPTION = message("You cannot give a subscription to yourself.");
const NO_MONTHLY_PLAN = message("This creator has no paid monthly plan to give.");
const RECIPIENT_UNAVAILABLE = message("This member cannot receive a subscription to this creator.");
const ALREADY_FREE = message("This member already has a free subscription to this creator.");
const TRY_AGAIN = message("Something changed meanwhile: nothing was charged. Try again.");

type Ctx = Pick<DomainContext, "db" | "publish" | "config" | "defer">;

/**
 * A gift of `months` months of the creator's monthly plan to another member, paid from the giver's wallet now
 * (giftPriceCents: the creator's bundle of that length when there is one). It never renews on the giver's money:
 * a new subscription is written cancelled, so it ends at its date unless its member resumes it on their own; a gift
 * to someone already subscribed moves their current period's end on by the months given. The payment and the
 * subscription change are one batch, guarded by the subscription as it was read.
 */
export async function giftSubscription(
  ctx: Ctx,
  giver: UserRow,
  username: string,
  input: GiftInput,
): Promise<{ recipient: string; months: number; endsAt: string }> {
  const { db } = ctx;
  const creator = await findCounterpart(db, username, giver.id, message("You cannot gift your own subscription."));
  const to = input.to.replace(/^@/, "").toLowerCase();
  const now = isoNow();
  const [recipient, monthly, bundles, live, blocked] = await readTogether(db, [
    counterpartRead(db, to, giver.id, OWN_SUBSCRIPTION),
    firstRow<{ price_cents: number }>(
      db
        .prepare("SELECT price_cents FROM subscription_plans WHERE creator_id = ? AND period = 'month'")
        .bind(creator.id),
    ),
    allRows<BundleRow>(bundlesStatement(db, creator.id)),
    firstRow<SubscriptionRow>(
      db
        .prepare(
          "SELECT * FROM subscriptions WHERE fan_id = (SELECT id FROM users WHERE username = ?) AND creator_id = ? AND status IN ('active', 'cancelled')",
        )
        .bind(to, creator.id),
    ),
    firstRow<{ blocked: number }>(
      db
        .prepare(`SELECT ${blockedEitherWaySql("?1", "(SELECT id FROM users WHERE username = ?2)")} AS blocked`)
        .bind(creator.id, to),
    ),
  ]);
  if (recipient.id === creator.id || blocked?.blocked) throw fieldError("to", RECIPIENT_UNAVAILABLE);
  if (creator.role !== "creator" || !monthly?.price_cents) throw new AppError("validation", NO_MONTHLY_PLAN);
  const price = giftPriceCents(
    monthly.price_cents,
    bundles.map((row) => ({ months: row.months, discountPercent: row.discount_percent })),
    input.months,
  );
  if (price !== input.priceCents) throw new PriceChangedError(price);

  // A live subscription past its end that the cron has not expired yet ends now, so the gift starts a new one.
  const running = live && live.current_period_end > now ? live : null;
  // Paying for months of a subscription that already costs nothing would buy nothing.
  if (running && running.price_cents === 0) throw fieldError("to", ALREADY_FREE);
  if (live && !running) {
    await db
      .prepare(
        "UPDATE subscriptions SET status = 'expired', ended_at = current_period_end WHERE id = ? AND current_period_end = ?",
      )
      .bind(live.id, live.current_period_end)
      .run();
  }
  const endsAt = addMonths(running ? running.current_period_end : now, input.months);
  const notices = [
    notificationStatements(ctx, {
      userId: recipient.id,
      kind: "gift",
      actorId: creator.id,
      params: { from: giver.name, months: input.months },
    }),
    notificationStatements(ctx, {
      userId: creator.id,
      kind: "subscription",
      actorId: recipient.id,
      params: { period: "month", gift: input.months },
    }),
  ];
  const change = running
    ? [
        db
          // A free trial moves with it: the months given are free too, and its end is still told as the trial's.
          .prepare(
            `UPDATE subscriptions SET current_period_end = ?1,
               trial_ends_at = CASE WHEN trial_ends_at = current_period_end THEN ?1 ELSE trial_ends_at END
             WHERE id = ?2 AND current_period_end = ?3`,
          )
          .bind(endsAt, running.id, running.current_period_end),
      ]
    : [
        db
          .prepare(
            `INSERT INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end, gifted_by)
             VALUES (?, ?, 'month', ?, 'cancelled', ?, ?, ?)`,
          )
          .bind(recipient.id, creator.id, monthly.price_cents, now, endsAt, giver.id),
        db
          .prepare("INSERT OR IGNORE INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?)")
          .bind(recipient.id, creator.id, now),
        // A gift that starts a subscription makes a new subscriber: the creator's welcome message is booked.
        welcomeDeliveryStatement(db, recipient.id, creator.id, now),
      ];
  try {
    const outcome = await payFromWallet(db, {
      payer: giver,
      creatorId: creator.id,
      kind: "subscription",
      amountCents: price,
      idempotencyKey: clientKey(input.idempotencyKey),
      request: { gift: recipient.id, months: input.months },
      giftForId: recipient.id,
      feePercent: ctx.config.PLATFORM_FEE_PERCENT,
      // The recipient's subscription is still as it was read (none live, or the same end).
      guard: running
        ? {
            sql: "EXISTS (SELECT 1 FROM subscriptions WHERE id = ? AND current_period_end = ? AND status IN ('active', 'cancelled'))",
            binds: [running.id, running.current_period_end],
          }
        : {
            sql: "NOT EXISTS (SELECT 1 FROM subscriptions WHERE fan_id = ? AND creator_id = ? AND status IN ('active', 'cancelled'))",
            binds: [recipient.id, creator.id],
          },
      effects: (payment) => [
        ...change,
        db
          .prepare(
            `UPDATE payments SET subscription_id = (SELECT id FROM subscriptions WHERE fan_id = ? AND creator_id = ? AND status IN ('active', 'cancelled')) WHERE id = ${payment.sql}`,
          )
          .bind(recipient.id, creator.id, ...payment.binds),
        ...notices.flatMap((notice) => notice.statements),
      ],
    });
    if (outcome.replayed) {
      const given = await db
        .prepare("SELECT current_period_end FROM subscriptions WHERE id = ?")
        .bind(outcome.payment.subscription_id)
        .first<string>("current_period_end");
      return { recipient: recipient.username, months: input.months, endsAt: given ?? endsAt };
    }
    const noticeResults = outcome.effects.slice(change.length + 1);
    ctx.publish(notices[0]!.created(noticeResults.slice(0, notices[0]!.statements.length)));
    ctx.publish(notices[1]!.created(noticeResults.slice(notices[0]!.statements.length)));
    if (!running) sendWelcomeMessageSoon(ctx, bookedWelcome(outcome.effects[change.length - 1]!));
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (String(error).includes("unbalanced transfer") || String(error).includes("subscriptions.fan_id"))
      throw new AppError("conflict", TRY_AGAIN);
    throw error;
  }
  return { recipient: recipient.username, months: input.months, endsAt };
}
