/**
 * The built-in sandbox provider: a card form of our own (/wallet/top-up/{id}) where documented test numbers
 * succeed, are declined or need the card holder's confirmation, as Stripe's test cards do. No card data is
 * stored; only the outcome is.
 */
import { message } from "@shared/messages";
import { cardDigitsOf } from "@shared/contracts/money-bodies";
import type { PaymentProvider } from "./provider";
import { SANDBOX_CARDS, type SandboxOutcome } from "@shared/contracts/money-constants";
export { type SandboxOutcome };

export const sandboxProvider: PaymentProvider = {
  name: "sandbox",
  async checkout(payment) {
    return { redirectUrl: `/wallet/top-up/${payment.id}`, providerRef: null };
  },
};

export const CARD_DECLINED = message("Your card was declined.");
export const PAYMENT_CANCELLED = message("You cancelled this payment.");

export function sandboxOutcome(cardNumber: string): SandboxOutcome {
  const digits = cardDigitsOf(cardNumber);
  return SANDBOX_CARDS.find((card) => cardDigitsOf(card.number) === digits)?.outcome ?? "declined";
}
