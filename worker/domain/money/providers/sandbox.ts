/**
 * The built-in sandbox provider: a card form of our own (/wallet/top-up/{id}) where documented test numbers
 * succeed, are declined or need the card holder's confirmation, as Stripe's test cards do. No card data is
 * stored; only the outcome is.
 */
import { z } from "zod";
import { INVALID_VALUE } from "@shared/messages";
import { message } from "@shared/messages";
import { singleLineText } from "@shared/contracts/text";
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

const digitsOf = (text: string) => text.replace(/[\s-]/g, "");

/** The Luhn checksum every real card number satisfies: it catches a mistyped digit. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function sandboxOutcome(cardNumber: string): SandboxOutcome {
  const digits = digitsOf(cardNumber);
  return SANDBOX_CARDS.find((card) => digitsOf(card.number) === digits)?.outcome ?? "declined";
}

const INVALID_CARD_NUMBER = message("Invalid card number.");
const INVALID_EXPIRY = message("Enter the expiry date as MM/YY.");
const CARD_EXPIRED = message("This card has expired.");
const INVALID_CVC = message("Enter the 3 or 4 digits on the back of the card.");
const NAME_REQUIRED = message("Enter the name on the card.");

/** "MM/YY" is valid until the end of that month (UTC). */
export function cardExpired(expiry: string, now = new Date()): boolean {
  const [month, year] = expiry.split("/").map(Number) as [number, number];
  return Date.UTC(2000 + year, month, 1) <= now.getTime();
}

export const CardSchema = z.object({
  cardNumber: singleLineText({ message: INVALID_CARD_NUMBER })
    .transform(digitsOf)
    .refine((digits) => /^\d{12,19}$/.test(digits) && passesLuhn(digits), { message: INVALID_CARD_NUMBER }),
  // "12/29", "12 / 29" or the digits alone ("1229", what a number keypad types): always read as MM/YY.
  expiry: singleLineText({ message: INVALID_EXPIRY })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/?\s*\d\d$/, { message: INVALID_EXPIRY })
    .transform((text) => text.replace(/\D/g, "").replace(/^(\d\d)/, "$1/"))
    .refine((text) => !cardExpired(text), { message: CARD_EXPIRED }),
  cvc: singleLineText({ message: INVALID_CVC })
    .trim()
    .regex(/^\d{3,4}$/, { message: INVALID_CVC }),
  name: singleLineText({ message: NAME_REQUIRED })
    .trim()
    .min(1, { message: NAME_REQUIRED })
    .max(100, { message: INVALID_VALUE }),
});
export type CardInput = z.output<typeof CardSchema>;
