import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditLedger, balanceOf, walletOf } from "../../worker/domain/money/ledger";
import { startTopUp } from "../../worker/domain/money/start-top-up";
import { createApp } from "../../worker/app";
import { api, countRows } from "./factories";
import { newKey } from "./money-fixtures";
import { deliver, fakeStripe, sessionEvent, sign, stripeTopUp } from "./stripe-fixtures";

const SECRET = env.STRIPE_WEBHOOK_SECRET!;

const wallet = (userId: number) => balanceOf(env.DB, walletOf(userId));
const statusOf = async (paymentId: number) =>
  (await env.DB.prepare("SELECT status FROM payments WHERE id = ?").bind(paymentId).first<{ status: string }>())!
    .status;

async function expectBooksBalanced() {
  expect(await auditLedger(env.DB)).toEqual({
    unbalancedTransfers: 0,
    openTransfers: 0,
    negativeAccounts: 0,
    driftedAccounts: 0,
    totalCents: 0,
  });
}

describe("Stripe Checkout", () => {
  it("creates a Checkout Session for the pending payment and sends the payer to it; a replay gets the same session", async () => {
    const topUp = await stripeTopUp(2500);
    expect(topUp.provider).toBe("stripe");
    expect(topUp.start.redirectUrl).toBe(`https://checkout.stripe.com/c/pay/${topUp.sessionId}`);
    const [call] = topUp.stripe.calls;
    expect(call!.url).toBe("https://api.stripe.com/v1/checkout/sessions");
    expect(call!.headers.get("Authorization")).toBe("Bearer sk_test_123");
    expect(call!.headers.get("Content-Type")).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(call!.form)).toEqual({
      mode: "payment",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "2500",
      "line_items[0][price_data][product_data][name]": "Wallet top-up",
      success_url: `https://fans.example/wallet?topUp=${topUp.paymentId}`,
      cancel_url: `https://fans.example/wallet?topUp=${topUp.paymentId}`,
      client_reference_id: String(topUp.paymentId),
      "metadata[payment_id]": String(topUp.paymentId),
    });
    const key = (await env.DB.prepare("SELECT idempotency_key FROM payments WHERE id = ?")
      .bind(topUp.paymentId)
      .first<{ idempotency_key: string }>())!.idempotency_key;
    const replay = await startTopUp(topUp.ctx, topUp.user, { amountCents: 2500, idempotencyKey: key.slice(2) });
    expect(replay).toMatchObject({
      replayed: true,
      redirectUrl: topUp.start.redirectUrl,
      payment: { id: topUp.paymentId },
    });
    expect(await wallet(topUp.user.id)).toBe(0);
  });

  it("lets forms redirect to Stripe's checkout only when Stripe is configured (CSP form-action)", async () => {
    const formAction = async (variables: Partial<typeof env>) => {
      const ctx = createExecutionContext();
      const response = await createApp(null).fetch(
        new Request("https://app.test/api/health"),
        { ...env, ...variables },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return /form-action [^;]+/.exec(response.headers.get("Content-Security-Policy") ?? "")?.[0];
    };
    expect(await formAction({})).toBe("form-action 'self'");
    expect(await formAction({ STRIPE_SECRET_KEY: "sk_test_123" })).toBe(
      "form-action 'self' https://checkout.stripe.com",
    );
  });

  it("fails the payment with a clear 409 when Stripe refuses to create the session", async () => {
    await expect(stripeTopUp(2500, fakeStripe("error"))).rejects.toMatchObject({
      code: "conflict",
      message: "The payment provider could not be reached. Please try again.",
    });
    const payment = await env.DB.prepare("SELECT status, failure_reason FROM payments").first();
    expect(payment).toEqual({
      status: "failed",
      failure_reason: "The payment provider could not be reached. Please try again.",
    });
  });
});

describe("the Stripe webhook", () => {
  it("credits a paid session once, however often Stripe delivers the event", async () => {
    const topUp = await stripeTopUp(2500);
    const body = sessionEvent("checkout.session.completed", {
      id: topUp.sessionId,
      paymentId: topUp.paymentId,
      amountCents: 2500,
    });
    const first = await deliver(body, await sign(body));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, outcome: "applied" });
    // Redelivered later: acknowledged (Stripe stops retrying) and not applied again.
    const again = (await (await deliver(body, await sign(body))).json()) as { received: boolean; outcome: string };
    expect(again.received).toBe(true);
    expect(again.outcome).not.toBe("applied");
    // Another event for the same session (a delayed method's success) cannot credit it twice either.
    const late = sessionEvent("checkout.session.async_payment_succeeded", {
      id: topUp.sessionId,
      paymentId: topUp.paymentId,
      amountCents: 2500,
    });
    expect(await (await deliver(late, await sign(late))).json()).toEqual({ received: true, outcome: "ignored" });
    expect(await wallet(topUp.user.id)).toBe(2500);
    expect(await statusOf(topUp.paymentId)).toBe("succeeded");
    const listed = (await (await api("/wallet", { token: topUp.fan.token })).json()) as { balanceCents: number };
    expect(listed.balanceCents).toBe(2500);
    await expectBooksBalanced();
  });

  it("applies one of two simultaneous deliveries of the same event", async () => {
    const topUp = await stripeTopUp(4000);
    const body = sessionEvent("checkout.session.completed", {
      id: topUp.sessionId,
      paymentId: topUp.paymentId,
      amountCents: 4000,
    });
    const signature = await sign(body);
    const answers = await Promise.all([deliver(body, signature), deliver(body, signature), deliver(body, signature)]);
    const outcomes = await Promise.all(
      answers.map(async (response) => ((await response.json()) as { outcome: string }).outcome),
    );
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(outcomes.filter((outcome) => outcome === "applied")).toHaveLength(1);
    expect(await wallet(topUp.user.id)).toBe(4000);
    expect(await countRows("provider_events")).toBe(1);
    await expectBooksBalanced();
  });

  it("credits nothing for a forged, wrongly keyed, stale, tampered or malformed signature: 400, nothing recorded", async () => {
    const topUp = await stripeTopUp(2500);
    const body = sessionEvent("checkout.session.completed", {
      id: topUp.sessionId,
      paymentId: topUp.paymentId,
      amountCents: 2500,
    });
    const now = Math.floor(Date.now() / 1000);
    const valid = await sign(body);
    const attempts: [string, string | null][] = [
      [body, null],
      [body, ""],
      [body, "garbage"],
      [body, `t=${now},v1=${"0".repeat(64)}`],
      [body, await sign(body, "whsec_someone_else")],
      // Well past the 5 minutes (the exact boundary is in tests/unit/stripe-signature.test.ts: the clock moves here).
      [body, await sign(body, SECRET, now - 360)],
      [body, await sign(body, SECRET, now + 360)],
      [body.replace('"amount_total":2500', '"amount_total":250000'), valid],
      [body, valid.replace(/^t=\d+/, `t=${now - 1}`)],
      [body, `${valid},t=${now}`],
      [body, valid.replace("v1=", "v0=")],
    ];
    for (const [rawBody, signature] of attempts) {
      const response = await deliver(rawBody, signature);
      expect(response.status, String(signature)).toBe(400);
      expect(await response.json()).toEqual({ received: false, error: "signature" });
    }
    expect(await countRows("provider_events")).toBe(0);
    expect(await wallet(topUp.user.id)).toBe(0);
    expect(await statusOf(topUp.paymentId)).toBe("pending");
    // Among several v1 signatures (a secret being rolled), one valid is enough.
    expect((await deliver(body, `${valid},v1=${"ab".repeat(32)}`)).status).toBe(200);
    expect(await wallet(topUp.user.id)).toBe(2500);
    await expectBooksBalanced();
  });

  it("credits nothing when the amount differs from the payment's or the session is not ours", async () => {
    const topUp = await stripeTopUp(2500);
    const wrongAmount = sessionEvent("checkout.session.completed", {
      id: topUp.sessionId,
      paymentId: topUp.paymentId,
      amountCents: 250000,
    });
    expect(await (await deliver(wrongAmount, await sign(wrongAmount))).json()).toEqual({
      received: true,
      outcome: "ignored",
    });
    const noAmount = wrongAmount.replace('"amount_total":250000', '"amount_total":null');
    expect(await (await deliver(noAmount, await sign(noAmount))).json()).toEqual({
      received: true,
      outcome: "ignored",
    });
    const otherSession = sessionEvent("checkout.session.completed", {
      id: "cs_test_other_deployment",
      paymentId: topUp.paymentId,
      amountCents: 2500,
    });
    expect(await (await deliver(otherSession, await sign(otherSession))).json()).toEqual({
      received: true,
      outcome: "ignored",
    });
    const unknownPayment = sessionEvent("checkout.session.expired", {
      id: topUp.sessionId,
      paymentId: 999_999,
      amountCents: 2500,
    });
    expect(await (await deliver(unknownPayment, await sign(unknownPayment))).json()).toEqual({
      received: true,
      outcome: "ignored",
    });
    expect(await wallet(topUp.user.id)).toBe(0);
    expect(await statusOf(topUp.paymentId)).toBe("pending");
  });

  it("waits for a delayed method, fails an expired session, and ignores other events", async () => {
    const delayed = await stripeTopUp(1000);
    const session = { id: delayed.sessionId, paymentId: delayed.paymentId, amountCents: 1000 };
    const unpaid = sessionEvent("checkout.session.completed", { ...session, paymentStatus: "unpaid" });
    expect(await (await deliver(unpaid, await sign(unpaid))).json()).toEqual({ received: true, outcome: "ignored" });
    expect(await wallet(delayed.user.id)).toBe(0);
    const succeeded = sessionEvent("checkout.session.async_payment_succeeded", session);
    expect(await (await deliver(succeeded, await sign(succeeded))).json()).toEqual({
      received: true,
      outcome: "applied",
    });
    expect(await wallet(delayed.user.id)).toBe(1000);

    const expired = await stripeTopUp(5000);
    const expiry = sessionEvent("checkout.session.expired", {
      id: expired.sessionId,
      paymentId: expired.paymentId,
      amountCents: 5000,
    });
    expect(await (await deliver(expiry, await sign(expiry))).json()).toEqual({ received: true, outcome: "applied" });
    const failed = (await (await api(`/wallet/top-ups/${expired.paymentId}`, { token: expired.fan.token })).json()) as {
      payment: { status: string; failureReason: string };
    };
    expect(failed.payment).toMatchObject({ status: "failed", failureReason: "The payment was not completed in time." });

    const declined = await stripeTopUp(5000);
    const failure = sessionEvent("checkout.session.async_payment_failed", {
      id: declined.sessionId,
      paymentId: declined.paymentId,
      amountCents: 5000,
    });
    expect(await (await deliver(failure, await sign(failure))).json()).toEqual({ received: true, outcome: "applied" });
    expect(await statusOf(declined.paymentId)).toBe("failed");

    const other = JSON.stringify({
      id: `evt_${newKey()}`,
      type: "customer.created",
      data: { object: { id: "cus_1" } },
    });
    expect(await (await deliver(other, await sign(other))).json()).toEqual({ received: true, outcome: "ignored" });
    expect(await wallet(expired.user.id)).toBe(0);
    await expectBooksBalanced();
  });

  it("answers 400 to a signed body that is not an event, and 413 to one too large; never 5xx", async () => {
    for (const body of [
      "{",
      "[]",
      JSON.stringify({ id: 1, type: "x" }),
      JSON.stringify({ id: "evt_1", type: "checkout.session.completed" }),
    ]) {
      const response = await deliver(body, await sign(body));
      expect(response.status, body).toBe(400);
    }
    // Another app's session on the same Stripe account: acknowledged, not ours.
    for (const metadata of [{ payment_id: "-1" }, { payment_id: "abc" }, { order: "7" }, null]) {
      const body = JSON.stringify({
        id: `evt_${newKey()}`,
        type: "checkout.session.completed",
        data: { object: { id: "cs_x", amount_total: 500, payment_status: "paid", metadata } },
      });
      expect(await (await deliver(body, await sign(body))).json()).toEqual({ received: true, outcome: "ignored" });
    }
    const huge = JSON.stringify({
      id: "evt_big",
      type: "customer.updated",
      data: { object: { padding: "x".repeat(600 * 1024) } },
    });
    expect((await deliver(huge, await sign(huge))).status).toBe(413);
    expect(await countRows("provider_events")).toBe(0);
  });

  it("does not exist when no STRIPE_WEBHOOK_SECRET is configured", async () => {
    const withoutStripe = { ...env, STRIPE_WEBHOOK_SECRET: undefined };
    const body = JSON.stringify({ id: "evt_1", type: "checkout.session.completed" });
    const ctx = createExecutionContext();
    const response = await createApp(null).fetch(
      new Request("https://app.test/api/webhooks/stripe", {
        method: "POST",
        body,
        headers: { "Content-Type": "application/json", "Stripe-Signature": await sign(body) },
      }),
      withoutStripe,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(404);
  });
});
