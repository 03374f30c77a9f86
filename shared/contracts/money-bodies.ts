/**
 * The money API's request bodies (top-ups, the sandbox's card, tips, purchases, withdrawals, the payout method, an
 * admin's rejection of a payout), parsed by worker/api's routes and by the page's form actions alike. Rules that
 * need the database (a balance, the price a creator set) or whose error carries amounts (a tip's range) stay in
 * worker/domain/money.
 */
import { z } from "zod";
import { INVALID_VALUE, message } from "../messages";
import { emailSchema, passwordText } from "./accounts";
import { MAX_TIP_NOTE_LENGTH } from "./money-constants";
import { multilineText, singleLineText } from "./text";

/** Every paying request carries a key chosen by the client (a UUID per attempt); a replay returns the first result. */
export const IdempotencyKeySchema = z
  .string({ message: INVALID_VALUE })
  .regex(/^[A-Za-z0-9_-]{8,100}$/, { message: INVALID_VALUE });

/**
 * The price the person was shown, in cents, sent with every request that may charge them a price the creator sets
 * (docs/decisions/seen-price.md): a different current price is refused (PriceChangedError), never charged.
 */
export const SeenPriceSchema = z
  .number({ message: INVALID_VALUE })
  .int({ message: INVALID_VALUE })
  .min(0, { message: INVALID_VALUE })
  .max(Number.MAX_SAFE_INTEGER, { message: INVALID_VALUE });

/** The same, as a form sends it. */
export const SeenPriceText = z
  .string({ message: INVALID_VALUE })
  .regex(/^\d{1,12}$/, { message: INVALID_VALUE })
  .transform(Number);

/** Whole cents; the range, whose error names its amounts, is checked by the domain command. */
const cents = z
  .number({ message: INVALID_VALUE })
  .int({ message: INVALID_VALUE })
  .max(Number.MAX_SAFE_INTEGER, { message: INVALID_VALUE });

export const TopUpSchema = z.object({
  amountCents: cents,
  idempotencyKey: IdempotencyKeySchema,
});
export type TopUpInput = z.output<typeof TopUpSchema>;

/** The sandbox's answer to a test card that asks its holder to confirm. */
export const TopUpDecisionSchema = z.object({ decision: z.enum(["confirm", "cancel"]) });

const INVALID_CARD_NUMBER = message("Invalid card number.");
const INVALID_EXPIRY = message("Enter the expiry date as MM/YY.");
const CARD_EXPIRED = message("This card has expired.");
const INVALID_CVC = message("Enter the 3 or 4 digits on the back of the card.");
const NAME_REQUIRED = message("Enter the name on the card.");

/** A card number as typed ("4242 4242-4242 4242") without its separators. */
export const cardDigitsOf = (text: string) => text.replace(/[\s-]/g, "");

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

/** "MM/YY" is valid until the end of that month (UTC). */
export function cardExpired(expiry: string, now = new Date()): boolean {
  const [month, year] = expiry.split("/").map(Number) as [number, number];
  return Date.UTC(2000 + year, month, 1) <= now.getTime();
}

/** The sandbox's card form (development and test only): no card data is stored, only the outcome. */
export const CardSchema = z.object({
  cardNumber: singleLineText({ message: INVALID_CARD_NUMBER })
    .transform(cardDigitsOf)
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

/** A tip on a post, a profile, in a conversation or during a live stream. */
export const TipSchema = z.object({
  amountCents: cents,
  note: multilineText()
    .trim()
    .max(MAX_TIP_NOTE_LENGTH, { message: message("A message is at most 500 characters.") })
    .optional(),
  idempotencyKey: IdempotencyKeySchema,
});
export type TipInput = z.output<typeof TipSchema>;

export const PurchaseSchema = z.object({
  /** The price the fan was shown: a price changed since is refused rather than charged. */
  priceCents: z.number({ message: INVALID_VALUE }).int().positive(),
  idempotencyKey: IdempotencyKeySchema,
});
export type PurchaseInput = z.output<typeof PurchaseSchema>;

/** An admin's rejection of a requested payout: the creator reads the reason. */
export const RejectPayoutSchema = z.object({
  reason: multilineText()
    .trim()
    .min(1, { message: message("Give a reason.") })
    .max(500),
});
export type RejectPayoutInput = z.output<typeof RejectPayoutSchema>;

/** The largest amount a form's field can hold (parseDollars: 9,999,999.99). */
const MAX_WITHDRAWAL_CENTS = 999_999_999;
export const OVER_MAXIMUM = message("A withdrawal can be at most {{max, money}}.", { max: MAX_WITHDRAWAL_CENTS });
const CENTS_FORMAT = message("Send the amount as a whole number of cents.");

/** A creator's withdrawal request, confirmed with their password when the session is not fresh. */
export const WithdrawalSchema = z.object({
  // Under the minimum (0 and less) and over what is available are refused with their amounts by requestWithdrawal.
  amountCents: z
    .number({ message: CENTS_FORMAT })
    .int({ message: CENTS_FORMAT })
    .max(MAX_WITHDRAWAL_CENTS, { message: OVER_MAXIMUM }),
  password: passwordText.optional(),
  idempotencyKey: IdempotencyKeySchema,
});
export type WithdrawalInput = z.output<typeof WithdrawalSchema>;

const EMAILS_DIFFER = message("The email addresses do not match.");
const REQUIRED = message("This field is required.");
const ACCOUNT_NUMBER_RULE = message("Enter the IBAN or account number: 4 to 34 letters and digits.");
const ROUTING_CODE_RULE = message("Enter the SWIFT/BIC or routing code: 6 to 11 letters and digits.");

const text = (max: number) => singleLineText({ message: REQUIRED }).trim().min(1, { message: REQUIRED }).max(max);
/** Bank codes are written with spaces for reading ("DE89 3704 …"); they are stored without, in capitals. */
const code = (min: number, max: number, rule: string) =>
  singleLineText({ message: REQUIRED })
    .transform((value) => value.replace(/[\s-]+/g, "").toUpperCase())
    .pipe(
      z
        .string()
        .min(1, { message: REQUIRED })
        .regex(new RegExp(`^[A-Z0-9]{${min},${max}}$`), { message: rule }),
    );

const password = passwordText.optional();

/** Where a creator's payouts go: a PayPal address, typed twice, or bank transfer details. */
export const PayoutMethodSchema = z
  .discriminatedUnion("kind", [
    z.object({
      kind: z.literal("paypal"),
      paypalEmail: emailSchema,
      paypalEmailConfirmation: singleLineText().max(254),
      password,
    }),
    z.object({
      kind: z.literal("bank"),
      accountHolder: text(100),
      bankName: text(100),
      accountNumber: code(4, 34, ACCOUNT_NUMBER_RULE),
      routingCode: code(6, 11, ROUTING_CODE_RULE),
      country: text(56),
      password,
    }),
  ])
  .superRefine((input, ctx) => {
    if (input.kind === "paypal" && input.paypalEmailConfirmation.trim().toLowerCase() !== input.paypalEmail) {
      ctx.addIssue({ code: "custom", message: EMAILS_DIFFER, path: ["paypalEmailConfirmation"] });
    }
  });
export type PayoutMethodInput = z.output<typeof PayoutMethodSchema>;
