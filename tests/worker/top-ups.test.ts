import { env } from "cloudflare:test";
import { testContext } from "./domain-context";
import { describe, expect, it } from "vitest";
import { findUserById } from "../../worker/domain/accounts/users";
import { auditLedger, balanceOf, walletOf } from "../../worker/domain/money/ledger";
import { payWithSandboxCard } from "../../worker/domain/money/sandbox-top-up";
import { startTopUp } from "../../worker/domain/money/start-top-up";
import { expireAbandonedSandboxTopUps } from "../../worker/domain/money/top-ups";
import { config } from "../../worker/env";
import { api, countRows, createUser, postJson } from "./factories";
import { createFan, newKey } from "./money-fixtures";

type Payment = {
  id: number;
  kind: string;
  amountCents: number;
  status: string;
  failureReason: string | null;
  checkoutPath: string | null;
};
type Start = { payment: Payment; redirectUrl: string; replayed: boolean };

const CARD = { expiry: "12/40", cvc: "123", name: "Ada Fan" };
const SUCCEEDS = "4242 4242 4242 4242";
const DECLINED = "4000 0000 0000 0002";
const NEEDS_CONFIRMATION = "4000 0025 0000 3155";

const wallet = (userId: number) => balanceOf(env.DB, walletOf(userId));
const startTopUpFor = (token: string, amountCents: number, idempotencyKey = newKey()) =>
  postJson("/wallet/top-ups", { amountCents, idempotencyKey }, { token });
const payCard = (token: string, paymentId: number, card: Record<string, string>) =>
  postJson(`/wallet/top-ups/${paymentId}/card`, card, { token });

async function pendingTopUp(token: string, amountCents = 2500) {
  const response = await startTopUpFor(token, amountCents);
  expect(response.status).toBe(200);
  return ((await response.json()) as Start).payment;
}

async function expectBooksBalanced() {
  expect(await auditLedger(env.DB)).toEqual({
    unbalancedTransfers: 0,
    openTransfers: 0,
    negativeAccounts: 0,
    driftedAccounts: 0,
    totalCents: 0,
  });
}

describe("starting a top-up", () => {
  it("creates a pending sandbox payment and sends the payer to the card form; a replay leads to the same one", async () => {
    const fan = await createFan();
    const key = newKey();
    const first = (await (await startTopUpFor(fan.token, 2500, key)).json()) as Start;
    expect(first).toMatchObject({
      payment: {
        kind: "top_up",
        amountCents: 2500,
        status: "pending",
        checkoutPath: `/wallet/top-up/${first.payment.id}`,
      },
      redirectUrl: `/wallet/top-up/${first.payment.id}`,
      replayed: false,
    });
    const again = (await (await startTopUpFor(fan.token, 2500, key)).json()) as Start;
    expect(again).toMatchObject({ payment: { id: first.payment.id }, redirectUrl: first.redirectUrl, replayed: true });
    const reused = await startTopUpFor(fan.token, 5000, key);
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as { errors: Record<string, string[]> }).errors.idempotencyKey).toBeDefined();
    expect(await countRows("payments")).toBe(1);
    expect(await wallet(fan.user.userId)).toBe(0);
  });

  it("refuses amounts out of range, bad keys, unverified emails and visitors, writing nothing", async () => {
    const fan = await createFan();
    const tooSmall = await startTopUpFor(fan.token, 499);
    expect(tooSmall.status).toBe(422);
    expect(await tooSmall.json()).toEqual({
      message: "A top-up is between $5.00 and $1,000.00.",
      errors: { amountCents: ["A top-up is between $5.00 and $1,000.00."] },
    });
    expect((await startTopUpFor(fan.token, 100_001)).status).toBe(422);
    for (const body of [
      { amountCents: 12.5, idempotencyKey: newKey() },
      { amountCents: "2500", idempotencyKey: newKey() },
      { amountCents: 2500, idempotencyKey: "short" },
      { amountCents: 2500 },
      "{",
    ]) {
      expect((await postJson("/wallet/top-ups", body, { token: fan.token })).status).toBe(422);
    }
    const unverified = await createUser();
    const refused = await startTopUpFor(unverified.token, 2500);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe("Your email didn't verified yet.");
    expect((await startTopUpFor("", 2500)).status).toBe(401);
    expect(await countRows("payments")).toBe(0);
  });

  it("is not available in production without Stripe: the sandbox mints money", async () => {
    const fan = await createFan();
    const user = (await findUserById(env.DB, fan.user.userId))!;
    const production = { ...config(env), APP_ENV: "production" as const };
    const ctx = { db: env.DB, env, config: production, origin: "https://app.test" };
    await expect(startTopUp(ctx, user, { amountCents: 2500, idempotencyKey: newKey() })).rejects.toMatchObject({
      code: "forbidden",
      message: "Top-ups are not available right now.",
    });
    expect(await countRows("payments")).toBe(0);
    const payment = await pendingTopUp(fan.token);
    await expect(
      payWithSandboxCard({ ...testContext(), config: production }, user.id, payment.id, {
        cardNumber: "4242424242424242",
        expiry: "12/40",
        cvc: "123",
        name: "A",
      }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    expect(await wallet(fan.user.userId)).toBe(0);
  });
});

describe("the sandbox card form", () => {
  it("credits the wallet once for the success card, and a second submit changes nothing", async () => {
    const fan = await createFan();
    const payment = await pendingTopUp(fan.token, 2500);
    const paid = await payCard(fan.token, payment.id, { cardNumber: SUCCEEDS, ...CARD });
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { payment: Payment }).payment.status).toBe("succeeded");
    expect((await payCard(fan.token, payment.id, { cardNumber: SUCCEEDS, ...CARD })).status).toBe(200);
    expect(await wallet(fan.user.userId)).toBe(2500);
    const listed = (await (await api("/wallet", { token: fan.token })).json()) as {
      balanceCents: number;
      payments: Payment[];
    };
    expect(listed.balanceCents).toBe(2500);
    expect(listed.payments).toMatchObject([
      { id: payment.id, kind: "top_up", status: "succeeded", checkoutPath: null },
    ]);
    const notification = await env.DB.prepare("SELECT kind, params FROM notifications WHERE user_id = ?")
      .bind(fan.user.userId)
      .first<{ kind: string; params: string }>();
    expect(notification).toEqual({ kind: "top_up", params: JSON.stringify({ amountCents: 2500 }) });
    await expectBooksBalanced();
  });

  it("credits once when the success card is submitted several times at once", async () => {
    const fan = await createFan();
    const payment = await pendingTopUp(fan.token, 3000);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => payCard(fan.token, payment.id, { cardNumber: SUCCEEDS, ...CARD })),
    );
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await wallet(fan.user.userId)).toBe(3000);
    expect(await countRows("provider_events")).toBe(1);
    await expectBooksBalanced();
  });

  it("declines the decline card and any other valid number, with the reason in the history", async () => {
    const fan = await createFan();
    for (const cardNumber of [DECLINED, "5555 5555 5555 4444"]) {
      const payment = await pendingTopUp(fan.token);
      const declined = (await (await payCard(fan.token, payment.id, { cardNumber, ...CARD })).json()) as {
        payment: Payment;
      };
      expect(declined.payment).toMatchObject({ status: "failed", failureReason: "Your card was declined." });
      // A failed top-up is over: the success card cannot revive it.
      await payCard(fan.token, payment.id, { cardNumber: SUCCEEDS, ...CARD });
    }
    expect(await wallet(fan.user.userId)).toBe(0);
    const listed = (await (await api("/wallet", { token: fan.token })).json()) as { payments: Payment[] };
    expect(listed.payments.map((p) => p.status)).toEqual(["failed", "failed"]);
    await expectBooksBalanced();
  });

  it("asks for confirmation with the 3155 card: confirming credits, cancelling fails", async () => {
    const fan = await createFan();
    const confirmed = await pendingTopUp(fan.token, 1000);
    const asked = (await (
      await payCard(fan.token, confirmed.id, { cardNumber: NEEDS_CONFIRMATION, ...CARD })
    ).json()) as { payment: Payment };
    expect(asked.payment.status).toBe("requires_confirmation");
    expect(await wallet(fan.user.userId)).toBe(0);
    const decide = (id: number, decision: string) =>
      postJson(`/wallet/top-ups/${id}/confirmation`, { decision }, { token: fan.token });
    expect(((await (await decide(confirmed.id, "confirm")).json()) as { payment: Payment }).payment.status).toBe(
      "succeeded",
    );
    expect(await wallet(fan.user.userId)).toBe(1000);

    const cancelled = await pendingTopUp(fan.token, 5000);
    await payCard(fan.token, cancelled.id, { cardNumber: NEEDS_CONFIRMATION, ...CARD });
    expect((await decide(cancelled.id, "maybe")).status).toBe(422);
    expect(((await (await decide(cancelled.id, "cancel")).json()) as { payment: Payment }).payment).toMatchObject({
      status: "failed",
      failureReason: "You cancelled this payment.",
    });
    expect(((await (await decide(cancelled.id, "confirm")).json()) as { payment: Payment }).payment.status).toBe(
      "failed",
    );
    expect(await wallet(fan.user.userId)).toBe(1000);
    await expectBooksBalanced();
  });

  it("checks the card: Luhn, expiry, security code and name, each with its message", async () => {
    const fan = await createFan();
    const payment = await pendingTopUp(fan.token);
    const refused = await payCard(fan.token, payment.id, {
      cardNumber: "4242 4242 4242 4241",
      expiry: "01/20",
      cvc: "12",
      name: " ",
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      cardNumber: ["Invalid card number."],
      expiry: ["This card has expired."],
      cvc: ["Enter the 3 or 4 digits on the back of the card."],
      name: ["Enter the name on the card."],
    });
    const badMonth = await payCard(fan.token, payment.id, { cardNumber: SUCCEEDS, ...CARD, expiry: "13/40" });
    expect(((await badMonth.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      expiry: ["Enter the expiry date as MM/YY."],
    });
    for (const expiry of ["1240", "12", "1/40", "12/4"]) {
      const answer = await payCard(fan.token, payment.id, { cardNumber: SUCCEEDS, ...CARD, expiry, cvc: "12" });
      // A number keypad's "1240" is 12/40 (only the code is wrong); the rest are not dates.
      const errors = ((await answer.json()) as { errors: Record<string, string[]> }).errors;
      expect(errors.expiry, expiry).toEqual(expiry === "1240" ? undefined : ["Enter the expiry date as MM/YY."]);
    }
    expect(
      ((await (await api(`/wallet/top-ups/${payment.id}`, { token: fan.token })).json()) as { payment: Payment })
        .payment.status,
    ).toBe("pending");
  });

  it("lets only the payment's owner see, pay or confirm it", async () => {
    const owner = await createFan();
    const other = await createFan();
    const payment = await pendingTopUp(owner.token);
    expect((await api(`/wallet/top-ups/${payment.id}`, { token: other.token })).status).toBe(404);
    expect((await payCard(other.token, payment.id, { cardNumber: SUCCEEDS, ...CARD })).status).toBe(404);
    expect(
      (await postJson(`/wallet/top-ups/${payment.id}/confirmation`, { decision: "confirm" }, { token: other.token }))
        .status,
    ).toBe(404);
    expect((await payCard("", payment.id, { cardNumber: SUCCEEDS, ...CARD })).status).toBe(401);
    expect((await api("/wallet/top-ups/0", { token: owner.token })).status).toBe(422);
    expect(await wallet(owner.user.userId)).toBe(0);
    expect(await wallet(other.user.userId)).toBe(0);
  });
});

describe("abandoned sandbox top-ups", () => {
  it("fails those left at the card form for over an hour, once, and leaves recent ones and the card's own outcome alone", async () => {
    const fan = await createFan();
    const abandoned = await pendingTopUp(fan.token);
    const recent = await pendingTopUp(fan.token);
    const paid = await pendingTopUp(fan.token);
    await env.DB.prepare("UPDATE payments SET created_at = '2000-01-01T00:00:00.000Z' WHERE id IN (?, ?)")
      .bind(abandoned.id, paid.id)
      .run();
    // Past its hour the history no longer offers the card form, even before the cron has run.
    const listed = ((await (await api("/wallet", { token: fan.token })).json()) as { payments: Payment[] }).payments;
    expect(listed.find((payment) => payment.id === abandoned.id)).toMatchObject({
      status: "pending",
      checkoutPath: null,
    });
    expect(listed.find((payment) => payment.id === recent.id)).toMatchObject({
      status: "pending",
      checkoutPath: `/wallet/top-up/${recent.id}`,
    });
    expect((await payCard(fan.token, paid.id, { cardNumber: SUCCEEDS, ...CARD })).status).toBe(200);

    expect(await expireAbandonedSandboxTopUps(env)).toBe(1);
    expect(await expireAbandonedSandboxTopUps(env)).toBe(0);
    const status = (id: number) =>
      env.DB.prepare("SELECT status, failure_reason FROM payments WHERE id = ?").bind(id).first();
    expect(await status(abandoned.id)).toEqual({
      status: "failed",
      failure_reason: "The payment was not completed in time.",
    });
    expect(await status(recent.id)).toMatchObject({ status: "pending" });
    expect(await status(paid.id)).toMatchObject({ status: "succeeded" });
    // A card submitted after the expiry answers the settled payment and credits nothing.
    const late = (await (await payCard(fan.token, abandoned.id, { cardNumber: SUCCEEDS, ...CARD })).json()) as {
      payment: Payment;
    };
    expect(late.payment.status).toBe("failed");
    expect(await wallet(fan.user.userId)).toBe(2500);
    await expectBooksBalanced();
  });
});
