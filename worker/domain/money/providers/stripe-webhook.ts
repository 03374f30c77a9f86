/**
 * What a verified Stripe event does to a top-up. Checkout Session events: a paid session (at once, or later for
 * delayed methods) credits the wallet, a failed or expired one fails the payment. Charge events: a refund or a
 * dispute reverses the top-up whose PaymentIntent they name, and a closed dispute is won or lost
 * (docs/decisions/disputes.md). Each event is applied once (provider_events), and an amount that differs from the
 * payment's credits nothing.
 */
import { z } from "zod";
import type { DomainContext } from "../../context";
import { message } from "@shared/messages";
import { closeDispute } from "../close-dispute";
import { reverseTopUp } from "../reverse-top-up";
import { CHECKOUT_EXPIRED, creditTopUp, failTopUp, type EventOutcome } from "../top-ups";
import { verifyStripeSignature } from "./stripe-signature";

const PAYMENT_FAILED = message("The payment failed.");

const EventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string(),
  data: z.object({ object: z.unknown() }),
});

const CheckoutSessionSchema = z.object({
  id: z.string(),
  amount_total: z.number().int().nullable().optional(),
  payment_status: z.string().optional(),
  payment_intent: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

const ChargeSchema = z.object({
  id: z.string().min(1).max(255),
  payment_intent: z.string().min(1).max(255).nullable().optional(),
  amount_refunded: z.number().int().nonnegative(),
});

const DisputeSchema = z.object({
  id: z.string().min(1).max(255),
  payment_intent: z.string().min(1).max(255).nullable().optional(),
  amount: z.number().int().positive(),
  reason: z.string().max(200).nullable().optional(),
  status: z.string(),
});

export type WebhookAnswer = { status: 400; reason: "signature" | "payload" } | { status: 200; outcome: EventOutcome };

/**
 * The payment a session event is about. One Stripe account sends every event to every endpoint (staging,
 * production…), so the metadata's id alone could name another deployment's payment: the session must be ours.
 */
async function isOurSession(db: D1Database, paymentId: number, sessionId: string): Promise<boolean> {
  const row = await db
    .prepare(
      "SELECT 1 AS ok FROM payments WHERE id = ? AND kind = 'top_up' AND provider = 'stripe' AND provider_ref = ?",
    )
    .bind(paymentId, sessionId)
    .first();
  return row !== null;
}

export async function handleStripeWebhook(
  ctx: Pick<DomainContext, "env" | "db" | "publish">,
  secret: string,
  signature: string | null | undefined,
  rawBody: string,
): Promise<WebhookAnswer> {
  if (!(await verifyStripeSignature(secret, signature, rawBody))) return { status: 400, reason: "signature" };
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { status: 400, reason: "payload" };
  }
  const parsed = EventSchema.safeParse(json);
  if (!parsed.success) return { status: 400, reason: "payload" };
  const event = parsed.data;
  if (event.type === "charge.refunded" || event.type.startsWith("charge.dispute."))
    return chargeEvent(ctx, { id: event.id, type: event.type, object: event.data.object });
  // Other kinds of event (the endpoint may be subscribed to more) are acknowledged and left alone.
  if (!event.type.startsWith("checkout.session.")) return { status: 200, outcome: "ignored" };
  const checkout = CheckoutSessionSchema.safeParse(event.data.object);
  if (!checkout.success) return { status: 400, reason: "payload" };
  const session = checkout.data;
  // Sessions of other apps on the same Stripe account carry other metadata, or none: they are not ours, not bad.
  const paymentIdText = session.metadata?.payment_id;
  const paymentId =
    typeof paymentIdText === "string" && /^[1-9]\d{0,15}$/.test(paymentIdText) ? Number(paymentIdText) : undefined;
  if (paymentId === undefined || !(await isOurSession(ctx.db, paymentId, session.id)))
    return { status: 200, outcome: "ignored" };
  const base = { provider: "stripe" as const, eventId: event.id, paymentId };
  // What Stripe collected; creditTopUp credits only the payment's exact amount (null never matches).
  const collected = { ...base, amountCents: session.amount_total ?? Number.NaN, paymentRef: session.payment_intent };
  switch (event.type) {
    case "checkout.session.completed":
      // Delayed methods (bank debits) complete unpaid; their async_payment_succeeded event credits later.
      if (session.payment_status !== "paid") return { status: 200, outcome: "ignored" };
      return { status: 200, outcome: await creditTopUp(ctx, collected) };
    case "checkout.session.async_payment_succeeded":
      return { status: 200, outcome: await creditTopUp(ctx, collected) };
    case "checkout.session.async_payment_failed":
      return { status: 200, outcome: await failTopUp(ctx.env, { ...base, reason: PAYMENT_FAILED }) };
    case "checkout.session.expired":
      return { status: 200, outcome: await failTopUp(ctx.env, { ...base, reason: CHECKOUT_EXPIRED }) };
    default:
      return { status: 200, outcome: "ignored" };
  }
}

/**
 * A refund or a dispute of a charge. The top-up is found by the charge's PaymentIntent, which only a session of
 * ours recorded when it was paid; anything else on the Stripe account is acknowledged and left alone.
 */
async function chargeEvent(
  ctx: Pick<DomainContext, "db">,
  event: { id: string; type: string; object: unknown },
): Promise<WebhookAnswer> {
  const base = { provider: "stripe" as const, eventId: event.id };
  if (event.type === "charge.refunded") {
    const charge = ChargeSchema.safeParse(event.object);
    if (!charge.success) return { status: 400, reason: "payload" };
    const { id, payment_intent: paymentRef, amount_refunded: refunded } = charge.data;
    if (!paymentRef || refunded === 0) return { status: 200, outcome: "ignored" };
    return {
      status: 200,
      outcome: await reverseTopUp(ctx, {
        ...base,
        paymentRef,
        kind: "refund",
        providerRef: `${id}:${refunded}`,
        amountCents: refunded,
        reason: "refund",
      }),
    };
  }
  if (event.type !== "charge.dispute.created" && event.type !== "charge.dispute.closed")
    return { status: 200, outcome: "ignored" };
  const parsed = DisputeSchema.safeParse(event.object);
  if (!parsed.success) return { status: 400, reason: "payload" };
  const dispute = parsed.data;
  if (event.type === "charge.dispute.created") {
    // An inquiry ("warning_…") takes no money; only a chargeback does.
    if (!dispute.payment_intent || dispute.status.startsWith("warning_")) return { status: 200, outcome: "ignored" };
    return {
      status: 200,
      outcome: await reverseTopUp(ctx, {
        ...base,
        paymentRef: dispute.payment_intent,
        kind: "dispute",
        providerRef: dispute.id,
        amountCents: dispute.amount,
        reason: dispute.reason ?? "",
      }),
    };
  }
  if (dispute.status !== "won" && dispute.status !== "lost") return { status: 200, outcome: "ignored" };
  return {
    status: 200,
    outcome: await closeDispute(ctx, { ...base, providerRef: dispute.id, won: dispute.status === "won" }),
  };
}
