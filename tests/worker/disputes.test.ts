import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  auditLedger,
  balanceOf,
  debtOf,
  PLATFORM_FEES,
  PROVIDER_CLEARING,
  transferStatements,
  walletOf,
  type Account,
} from "../../worker/domain/money/ledger";
import { listDisputes } from "../../worker/domain/money/list-disputes";
import { releaseDueEarnings } from "../../worker/domain/money/release-earnings";
import { api, postJson } from "./factories";
import { createFan, createVerifiedCreator, newKey } from "./money-fixtures";
import { deliver, fakeStripe, sessionEvent, sign, stripeTopUp } from "./stripe-fixtures";

/**
 * Refunds and chargebacks of Stripe top-ups (docs/decisions/disputes.md): each event signed as Stripe signs it,
 * delivered twice (the second changes nothing), the books checked after each.
 */

type Fan = Awaited<ReturnType<typeof createFan>>;
type Creator = Awaited<ReturnType<typeof createVerifiedCreator>>;

const IN_DEBT =
  "Your wallet is negative because a card payment was refunded or disputed. Top up to settle it before paying.";

const stripeId = (prefix: string) => `${prefix}_test_${newKey().replace(/-/g, "")}`;

/** A top-up of `fan` paid through Checkout: the session's completion names its PaymentIntent. */
async function paidTopUp(fan: Fan, amountCents: number) {
  const topUp = await stripeTopUp(amountCents, fakeStripe(), newKey(), fan);
  const paymentIntent = stripeId("pi");
  const body = sessionEvent("checkout.session.completed", {
    id: topUp.sessionId,
    paymentId: topUp.paymentId,
    amountCents,
    paymentIntent,
  });
  expect(await outcomeOf(body)).toBe("applied");
  return { paymentId: topUp.paymentId, paymentIntent };
}

function refundEvent(paymentIntent: string, amountRefunded: number, chargeId = "ch_test_1") {
  return JSON.stringify({
    id: stripeId("evt"),
    object: "event",
    type: "charge.refunded",
    data: {
      object: {
        id: chargeId,
        object: "charge",
        payment_intent: paymentIntent,
        amount_refunded: amountRefunded,
        refunded: true,
      },
    },
  });
}

function disputeEvent(
  type: "charge.dispute.created" | "charge.dispute.closed",
  dispute: { id: string; paymentIntent: string; amountCents: number; status: string; reason?: string },
) {
  return JSON.stringify({
    id: stripeId("evt"),
    object: "event",
    type,
    data: {
      object: {
        id: dispute.id,
        object: "dispute",
        charge: "ch_test_1",
        payment_intent: dispute.paymentIntent,
        amount: dispute.amountCents,
        currency: "usd",
        reason: dispute.reason ?? "fraudulent",
        status: dispute.status,
      },
    },
  });
}

async function outcomeOf(body: string): Promise<string> {
  const response = await deliver(body, await sign(body));
  expect(response.status).toBe(200);
  return ((await response.json()) as { outcome: string }).outcome;
}

/** Everything money leaves behind: row counts, holds and every balance. Equal snapshots mean nothing moved. */
async function snapshot() {
  const counts = await env.DB.prepare(
    `SELECT (SELECT COUNT(*) FROM ledger_transfers) AS transfers, (SELECT COUNT(*) FROM ledger_entries) AS entries,
            (SELECT COUNT(*) FROM disputes) AS disputes, (SELECT COUNT(*) FROM provider_events) AS events,
            (SELECT group_concat(status) FROM disputes) AS statuses,
            (SELECT COUNT(*) FROM earnings WHERE held_by_dispute_id IS NOT NULL) AS held`,
  ).first();
  const { results: balances } = await env.DB.prepare("SELECT id, balance_cents FROM ledger_accounts ORDER BY id").all();
  return { counts, balances };
}

/** Delivers a signed event twice: the first applies it, the second is acknowledged and changes nothing. */
async function deliverTwice(body: string) {
  expect(await outcomeOf(body)).toBe("applied");
  const after = await snapshot();
  expect(await outcomeOf(body)).not.toBe("applied");
  expect(await snapshot()).toEqual(after);
}

/** A member's balances, read straight from the accounts (0 for one never used). */
async function balances(userId: number) {
  const { results } = await env.DB.prepare("SELECT kind, balance_cents FROM ledger_accounts WHERE user_id = ?")
    .bind(userId)
    .all<{ kind: string; balance_cents: number }>();
  const of = (kind: string) => results.find((row) => row.kind === kind)?.balance_cents ?? 0;
  return {
    wallet: of("wallet"),
    debt: of("debt"),
    pending: of("earnings_pending"),
    available: of("earnings_available"),
  };
}

async function expectBooksBalanced() {
  expect(await auditLedger(env.DB)).toEqual({
    unbalancedTransfers: 0,
    openTransfers: 0,
    negativeAccounts: 0,
    driftedAccounts: 0,
    totalCents: 0,
  });
  // Whoever owes the platform has nothing left in their wallet: credits settle the debt first.
  const both = await env.DB.prepare(
    `SELECT COUNT(*) AS n FROM ledger_accounts d JOIN ledger_accounts w ON w.user_id = d.user_id AND w.kind = 'wallet'
     WHERE d.kind = 'debt' AND d.balance_cents < 0 AND w.balance_cents > 0`,
  ).first<{ n: number }>();
  expect(both!.n).toBe(0);
}

const tip = (fan: Fan, creator: Creator, amountCents: number) =>
  postJson(`/users/${creator.user.username}/tips`, { amountCents, idempotencyKey: newKey() }, { token: fan.token });

async function walletBalance(fan: Fan) {
  const response = await api("/wallet", { token: fan.token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { balanceCents: number }).balanceCents;
}

/** Makes every earning due, then runs the release cron. */
async function releaseEverythingDue() {
  await env.DB.prepare(
    "UPDATE earnings SET release_at = '2000-01-01T00:00:00.000Z' WHERE release_transfer_id IS NULL",
  ).run();
  await releaseDueEarnings(env);
}

/** A fan who topped up $50 and tipped a creator $40 from it: $10 left, $32 pending for the creator. */
async function spentTopUp() {
  const fan = await createFan();
  const creator = await createVerifiedCreator();
  const topUp = await paidTopUp(fan, 5000);
  expect((await tip(fan, creator, 4000)).status).toBe(200);
  expect(await balances(creator.user.userId)).toMatchObject({ pending: 3200 });
  return { fan, creator, ...topUp };
}

async function openDispute(paymentIntent: string, amountCents: number) {
  const id = stripeId("du");
  await deliverTwice(
    disputeEvent("charge.dispute.created", { id, paymentIntent, amountCents, status: "needs_response" }),
  );
  return id;
}

describe("refunds", () => {
  it("take unspent money back from the wallet, once per event; partial refunds add up", async () => {
    const fan = await createFan();
    const { paymentId, paymentIntent } = await paidTopUp(fan, 5000);
    expect(
      await env.DB.prepare("SELECT provider_payment_ref FROM payments WHERE id = ?").bind(paymentId).first(),
    ).toEqual({ provider_payment_ref: paymentIntent });

    await deliverTwice(refundEvent(paymentIntent, 2000));
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 3000, debt: 0 });
    await expectBooksBalanced();
    // Stripe's amount_refunded is the charge's running total: the second refund is the $30 more.
    await deliverTwice(refundEvent(paymentIntent, 5000));
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 0, debt: 0 });
    expect(await walletBalance(fan)).toBe(0);
    const rows = (await listDisputes(env.DB)).filter((row) => row.fan.id === fan.user.userId);
    expect(
      rows.map(({ kind, status, amountCents, owedCents, heldCents, reason }) => ({
        kind,
        status,
        amountCents,
        owedCents,
        heldCents,
        reason,
      })),
    ).toEqual([
      { kind: "refund", status: "refunded", amountCents: 3000, owedCents: 0, heldCents: 0, reason: "refund" },
      { kind: "refund", status: "refunded", amountCents: 2000, owedCents: 0, heldCents: 0, reason: "refund" },
    ]);
    expect(rows.every((row) => row.closedAt !== null)).toBe(true);
    await expectBooksBalanced();
  });

  it("of a refunded charge's events with a forged or stale signature change nothing (400)", async () => {
    const fan = await createFan();
    const { paymentIntent } = await paidTopUp(fan, 5000);
    const before = await snapshot();
    const now = Math.floor(Date.now() / 1000);
    for (const body of [
      refundEvent(paymentIntent, 5000),
      disputeEvent("charge.dispute.created", {
        id: stripeId("du"),
        paymentIntent,
        amountCents: 5000,
        status: "needs_response",
      }),
    ]) {
      for (const signature of [
        null,
        await sign(body, "whsec_someone_else"),
        await sign(body, env.STRIPE_WEBHOOK_SECRET!, now - 600),
        `t=${now},v1=${"0".repeat(64)}`,
      ]) {
        const response = await deliver(body, signature);
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({ received: false, error: "signature" });
      }
      const tampered = body.replace(":5000", ":4999");
      expect(tampered).not.toBe(body);
      expect((await deliver(tampered, await sign(body))).status).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 5000, debt: 0 });
  });

  it("leave alone charges that are not our top-ups, inquiries, and other dispute states; reject a bad payload", async () => {
    const fan = await createFan();
    const { paymentIntent } = await paidTopUp(fan, 5000);
    const before = await snapshot();
    expect(await outcomeOf(refundEvent(stripeId("pi"), 5000))).toBe("ignored");
    const inquiry = { id: stripeId("du"), paymentIntent, amountCents: 5000, status: "warning_needs_response" };
    expect(await outcomeOf(disputeEvent("charge.dispute.created", inquiry))).toBe("ignored");
    expect(await outcomeOf(disputeEvent("charge.dispute.closed", { ...inquiry, status: "warning_closed" }))).toBe(
      "ignored",
    );
    expect(
      await outcomeOf(disputeEvent("charge.dispute.closed", { ...inquiry, id: stripeId("du"), status: "won" })),
    ).toBe("ignored");
    const bad = JSON.stringify({ id: stripeId("evt"), type: "charge.refunded", data: { object: { id: 7 } } });
    expect((await deliver(bad, await sign(bad))).status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});

describe("chargebacks", () => {
  it("after spending leave the wallet negative, refuse spending (402), hold the creator's earnings; top-ups settle first", async () => {
    const fan = await createFan();
    const earlier = await createVerifiedCreator();
    // Spent before the disputed top-up: its earning is not the disputed money's.
    await paidTopUp(fan, 1000);
    expect((await tip(fan, earlier, 1000)).status).toBe(200);
    const creator = await createVerifiedCreator();
    const { paymentIntent } = await paidTopUp(fan, 5000);
    expect((await tip(fan, creator, 4000)).status).toBe(200);

    const disputeId = await openDispute(paymentIntent, 5000);
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 0, debt: -4000 });
    expect(await walletBalance(fan)).toBe(-4000);
    await expectBooksBalanced();

    const refused = await tip(fan, creator, 100);
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { message: string }).message).toBe(IN_DEBT);

    const held = await env.DB.prepare(
      "SELECT creator_id, net_cents FROM earnings WHERE held_by_dispute_id = (SELECT id FROM disputes WHERE provider_ref = ?)",
    )
      .bind(disputeId)
      .all();
    expect(held.results).toEqual([{ creator_id: creator.user.userId, net_cents: 3200 }]);
    await releaseEverythingDue();
    expect(await balances(creator.user.userId)).toMatchObject({ pending: 3200, available: 0 });
    expect(await balances(earlier.user.userId)).toMatchObject({ pending: 0, available: 800 });
    const [row] = (await listDisputes(env.DB)).filter((listed) => listed.fan.id === fan.user.userId);
    expect(row).toMatchObject({
      kind: "dispute",
      status: "open",
      amountCents: 5000,
      owedCents: 4000,
      heldCents: 3200,
      reason: "fraudulent",
      closedAt: null,
    });

    await paidTopUp(fan, 3000);
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 0, debt: -1000 });
    expect((await tip(fan, creator, 100)).status).toBe(402);
    await paidTopUp(fan, 2000);
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 1000, debt: 0 });
    expect(await walletBalance(fan)).toBe(1000);
    expect((await tip(fan, creator, 500)).status).toBe(200);
    await expectBooksBalanced();
  });

  it("won re-credit the wallet as a new transfer, settling the debt first, and release the held earnings", async () => {
    const { fan, creator, paymentIntent } = await spentTopUp();
    const id = await openDispute(paymentIntent, 5000);
    await paidTopUp(fan, 1000);
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 0, debt: -3000 });
    const transfers = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transfers").first<{ n: number }>();

    await deliverTwice(disputeEvent("charge.dispute.closed", { id, paymentIntent, amountCents: 5000, status: "won" }));
    // $50 + $10 paid in, $40 spent.
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 2000, debt: 0 });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transfers").first<{ n: number }>()).toEqual({
      n: transfers!.n + 1,
    });
    const [row] = (await listDisputes(env.DB)).filter((listed) => listed.fan.id === fan.user.userId);
    expect(row).toMatchObject({ status: "won", heldCents: 0 });
    expect(row!.closedAt).not.toBeNull();
    await releaseEverythingDue();
    expect(await balances(creator.user.userId)).toMatchObject({ pending: 0, available: 3200 });
    // A second close of a closed dispute changes nothing.
    const before = await snapshot();
    expect(
      await outcomeOf(disputeEvent("charge.dispute.closed", { id, paymentIntent, amountCents: 5000, status: "lost" })),
    ).toBe("ignored");
    expect(await snapshot()).toEqual(before);
    await expectBooksBalanced();
  });

  it("lost give the held earnings to the platform; the fan's debt stays until a top-up settles it", async () => {
    const { fan, creator, paymentIntent } = await spentTopUp();
    const id = await openDispute(paymentIntent, 5000);
    const fees = await balanceOf(env.DB, PLATFORM_FEES);

    await deliverTwice(disputeEvent("charge.dispute.closed", { id, paymentIntent, amountCents: 5000, status: "lost" }));
    expect(await balances(creator.user.userId)).toMatchObject({ pending: 0, available: 0 });
    expect(await balanceOf(env.DB, PLATFORM_FEES)).toBe(fees + 3200);
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 0, debt: -4000 });
    const [row] = (await listDisputes(env.DB)).filter((listed) => listed.fan.id === fan.user.userId);
    expect(row).toMatchObject({ status: "lost", heldCents: 3200 });
    // The earning left pending through the lost dispute's transfer: the cron never releases it.
    const earning = await env.DB.prepare(
      `SELECT e.release_transfer_id = d.closing_transfer_id AS stamped FROM earnings e
       JOIN disputes d ON d.id = e.held_by_dispute_id WHERE d.provider_ref = ?`,
    )
      .bind(id)
      .first();
    expect(earning).toEqual({ stamped: 1 });
    await releaseEverythingDue();
    expect(await balances(creator.user.userId)).toMatchObject({ pending: 0, available: 0 });
    await paidTopUp(fan, 5000);
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 1000, debt: 0 });
    await expectBooksBalanced();
  });

  it("hold nothing the creator was already given: when lost, the platform carries the loss", async () => {
    const { fan, creator, paymentIntent } = await spentTopUp();
    await releaseEverythingDue();
    expect(await balances(creator.user.userId)).toMatchObject({ pending: 0, available: 3200 });
    const id = await openDispute(paymentIntent, 5000);
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 0, debt: -4000 });
    const fees = await balanceOf(env.DB, PLATFORM_FEES);
    let [row] = (await listDisputes(env.DB)).filter((listed) => listed.fan.id === fan.user.userId);
    expect(row).toMatchObject({ status: "open", owedCents: 4000, heldCents: 0 });

    await deliverTwice(disputeEvent("charge.dispute.closed", { id, paymentIntent, amountCents: 5000, status: "lost" }));
    expect(await balances(creator.user.userId)).toMatchObject({ pending: 0, available: 3200 });
    expect(await balanceOf(env.DB, PLATFORM_FEES)).toBe(fees);
    [row] = (await listDisputes(env.DB)).filter((listed) => listed.fan.id === fan.user.userId);
    expect(row).toMatchObject({ status: "lost", heldCents: 0 });
    expect(
      await env.DB.prepare("SELECT closing_transfer_id FROM disputes WHERE provider_ref = ?").bind(id).first(),
    ).toEqual({ closing_transfer_id: null });
    await expectBooksBalanced();
  });

  it("never take back more than the top-up brought in", async () => {
    const fan = await createFan();
    const { paymentIntent } = await paidTopUp(fan, 5000);
    await deliverTwice(refundEvent(paymentIntent, 2000));
    // A dispute of the whole charge after a partial refund reverses only what is left.
    await openDispute(paymentIntent, 5000);
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 0, debt: 0 });
    const before = await snapshot();
    expect(await outcomeOf(refundEvent(paymentIntent, 5000, "ch_test_2"))).toBe("ignored");
    expect(await snapshot()).toEqual(before);
    await expectBooksBalanced();
  });
});

describe("the debt account", () => {
  it("is refused by the database above zero, and the wallet still never goes below it", async () => {
    const fan = await createFan();
    const attempt = (legs: { account: Account; amount: number }[]) =>
      env.DB.batch(transferStatements(env.DB, { kind: "correction", legs }));
    await expect(
      attempt([
        { account: PROVIDER_CLEARING, amount: -100 },
        { account: debtOf(fan.user.userId), amount: 100 },
      ]),
    ).rejects.toThrow(/debt_not_positive/);
    await expect(
      attempt([
        { account: PROVIDER_CLEARING, amount: 100 },
        { account: walletOf(fan.user.userId), amount: -100 },
      ]),
    ).rejects.toThrow(/balance_not_negative/);
    expect(await balances(fan.user.userId)).toMatchObject({ wallet: 0, debt: 0 });
    await expectBooksBalanced();
  });
});
