/**
 * Where wallet top-ups are paid. A top-up is a pending payment of ours; its provider takes the payer's money and
 * later tells us the outcome (creditTopUp / failTopUp in ../top-ups.ts). Two implementations: Stripe Checkout
 * when STRIPE_SECRET_KEY is set, else the built-in sandbox, which mints money and so never runs in production.
 */
import type { Config } from "../../../env";
import { AppError } from "../../shared/errors";
import { message } from "@shared/messages";
import type { ProviderName } from "../top-ups";
import { sandboxProvider } from "./sandbox";
import { stripeProvider } from "./stripe";

interface PendingTopUp {
  id: number;
  amountCents: number;
}

interface Checkout {
  /** Where the browser goes to pay: a page of ours (sandbox) or the provider's hosted page (Stripe). */
  redirectUrl: string;
  /** The provider's id for this checkout (a Stripe Checkout Session id), kept in payments.provider_ref. */
  providerRef: string | null;
}

export interface PaymentProvider {
  name: ProviderName;
  /**
   * Starts paying a pending top-up; `origin` is where the payer comes back to. Called again for a replayed
   * request while the payment is pending, and must then lead to the same checkout.
   */
  checkout(payment: PendingTopUp, origin: string): Promise<Checkout>;
}

export const TOP_UPS_UNAVAILABLE = message("Top-ups are not available right now.");

/** The sandbox credits wallets with money nobody paid: never in production. */
export const sandboxAllowed = (settings: Pick<Config, "APP_ENV">) => settings.APP_ENV !== "production";

type ProviderSettings = Pick<Config, "APP_ENV" | "STRIPE_SECRET_KEY">;

export const topUpsAvailable = (settings: ProviderSettings) =>
  Boolean(settings.STRIPE_SECRET_KEY) || sandboxAllowed(settings);

/** The provider this deployment uses, or a 403 when it has none (production without Stripe). */
export function topUpProvider(
  settings: ProviderSettings,
  fetcher: typeof fetch = (input, init) => fetch(input, init),
): PaymentProvider {
  if (settings.STRIPE_SECRET_KEY) return stripeProvider(settings.STRIPE_SECRET_KEY, fetcher);
  if (sandboxAllowed(settings)) return sandboxProvider;
  throw new AppError("forbidden", TOP_UPS_UNAVAILABLE);
}
