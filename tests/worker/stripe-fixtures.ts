import { env } from "cloudflare:test";
import { testContext } from "./domain-context";
import { findUserById } from "../../worker/domain/accounts/users";
import { startTopUp } from "../../worker/domain/money/start-top-up";
import { config } from "../../worker/env";
import { api } from "./factories";
import { createFan, newKey } from "./money-fixtures";

/** Stripe's side of the money tests: signed webhook deliveries, a Stripe API double, top-ups through Checkout. */

const SECRET = env.STRIPE_WEBHOOK_SECRET!;
const encoder = new TextEncoder();

/** The header Stripe sends: t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">. */
export async function sign(rawBody: string, secret = SECRET, timestamp = Math.floor(Date.now() / 1000)) {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${rawBody}`)));
  return `t=${timestamp},v1=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export const deliver = (rawBody: string, signature: string | null) =>
  api("/webhooks/stripe", {
    method: "POST",
    body: rawBody,
    headers: signature === null ? {} : { "Stripe-Signature": signature },
  });

export function sessionEvent(
  type: string,
  session: { id: string; paymentId: number; amountCents: number; paymentStatus?: string; paymentIntent?: string },
  eventId = `evt_${newKey()}`,
) {
  return JSON.stringify({
    id: eventId,
    object: "event",
    type,
    data: {
      object: {
        id: session.id,
        object: "checkout.session",
        amount_total: session.amountCents,
        currency: "usd",
        payment_status: session.paymentStatus ?? "paid",
        payment_intent: session.paymentIntent ?? null,
        client_reference_id: String(session.paymentId),
        metadata: { payment_id: String(session.paymentId) },
      },
    },
  });
}

interface StripeCall {
  url: string;
  headers: Headers;
  form: URLSearchParams;
}

/** A Stripe API double: answers Checkout Session creation like Stripe, same session for the same Idempotency-Key. */
export function fakeStripe(answer: "ok" | "error" = "ok") {
  const calls: StripeCall[] = [];
  const sessions = new Map<string, string>();
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    calls.push({ url: String(input), headers, form: new URLSearchParams(String(init?.body)) });
    if (answer === "error")
      return new Response(JSON.stringify({ error: { message: "Invalid API Key provided" } }), { status: 401 });
    const key = headers.get("Idempotency-Key")!;
    if (!sessions.has(key)) sessions.set(key, `cs_test_${newKey().replace(/-/g, "")}`);
    const id = sessions.get(key)!;
    return Response.json({ id, object: "checkout.session", url: `https://checkout.stripe.com/c/pay/${id}` });
  }) as typeof fetch;
  return { calls, fetcher };
}

/** A pending Stripe top-up of a new fan (or of `fan`), its Checkout Session created through the double. */
export async function stripeTopUp(
  amountCents = 2500,
  stripe = fakeStripe(),
  idempotencyKey = newKey(),
  fan?: Awaited<ReturnType<typeof createFan>>,
) {
  const payer = fan ?? (await createFan());
  const user = (await findUserById(env.DB, payer.user.userId))!;
  const ctx = {
    ...testContext(),
    config: { ...config(env), STRIPE_SECRET_KEY: "sk_test_123" },
    origin: "https://fans.example",
    fetch: stripe.fetcher,
  };
  const start = await startTopUp(ctx, user, { amountCents, idempotencyKey });
  const row = await env.DB.prepare("SELECT provider, provider_ref FROM payments WHERE id = ?")
    .bind(start.payment.id)
    .first<{ provider: string; provider_ref: string }>();
  return {
    fan: payer,
    user,
    ctx,
    start,
    stripe,
    sessionId: row!.provider_ref,
    paymentId: start.payment.id,
    amountCents,
    provider: row!.provider,
  };
}
