/**
 * Stripe Checkout: a hosted payment page per top-up. The wallet is credited only by the signed webhook
 * (stripe-webhook.ts), never by the payer's return to success_url, which anyone can open.
 */
import { z } from "zod";
import { AppError } from "../../shared/errors";
import { message } from "@shared/messages";
import type { PaymentProvider } from "./provider";

const CHECKOUT_SESSIONS_URL = "https://api.stripe.com/v1/checkout/sessions";

const PROVIDER_UNREACHABLE = message("The payment provider could not be reached. Please try again.");

const SessionSchema = z.object({ id: z.string().min(1), url: z.url() });

/** Stripe's form encoding of the session to create; the payment id travels back in the webhook's metadata. */
function checkoutSessionForm(payment: { id: number; amountCents: number }, origin: string): URLSearchParams {
  const returnUrl = `${origin}/wallet?topUp=${payment.id}`;
  return new URLSearchParams({
    mode: "payment",
    "line_items[0][quantity]": "1",
    "line_items[0][price_data][currency]": "usd",
    "line_items[0][price_data][unit_amount]": String(payment.amountCents),
    "line_items[0][price_data][product_data][name]": "Wallet top-up",
    success_url: returnUrl,
    cancel_url: returnUrl,
    client_reference_id: String(payment.id),
    "metadata[payment_id]": String(payment.id),
  });
}

export function stripeProvider(secretKey: string, fetcher: typeof fetch): PaymentProvider {
  return {
    name: "stripe",
    async checkout(payment, origin) {
      let response: Response;
      try {
        response = await fetcher(CHECKOUT_SESSIONS_URL, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${secretKey}`,
            "Content-Type": "application/x-www-form-urlencoded",
            // A replayed top-up gets the same session back from Stripe instead of a second one.
            "Idempotency-Key": `top-up-${payment.id}`,
          },
          body: checkoutSessionForm(payment, origin),
        });
      } catch (error) {
        console.error("Stripe checkout session: network error", error);
        throw new AppError("conflict", PROVIDER_UNREACHABLE);
      }
      const session = SessionSchema.safeParse(await response.json().catch(() => null));
      if (!response.ok || !session.success) {
        console.error(`Stripe checkout session: HTTP ${response.status}`);
        throw new AppError("conflict", PROVIDER_UNREACHABLE);
      }
      return { redirectUrl: session.data.url, providerRef: session.data.id };
    },
  };
}
