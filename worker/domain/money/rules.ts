/**
 * The money rules in one place: limits, the platform fee and when earnings free up. Amounts are integer cents
 * (USD) everywhere; the client formats them.
 */
import { message } from "@shared/messages";
import { DAY } from "../shared/time";

export const CURRENCY = "USD";

/** Spec §5 and §9: the smallest withdrawal. */
export const MIN_WITHDRAWAL_CENTS = 5000;
/** Wallet top-ups: $5 to $1,000 at a time (spec: not shown; the usual range of such wallets). */
export const MIN_TOP_UP_CENTS = 500;
export const MAX_TOP_UP_CENTS = 100_000;
/** The amounts /wallet offers as buttons; any other amount in range can be typed. */
export const TOP_UP_PRESETS_CENTS = [1000, 2500, 5000, 10_000] as const;
/** Tips: $1 to $200 each (spec: not shown; OnlyFans and Fansly allow about this range). */
export const MIN_TIP_CENTS = 100;
export const MAX_TIP_CENTS = 20_000;
/** Spec §9: earnings become available 7 business days after the payment. */
export const HOLD_BUSINESS_DAYS = 7;

/**
 * Splits what a fan paid into the platform's fee and the creator's net. The fee is `feePercent` of the gross,
 * rounded half up to the cent, so the two always add up to the gross exactly.
 */
export function splitEarning(grossCents: number, feePercent: number): { feeCents: number; netCents: number } {
  const basisPoints = Math.round(feePercent * 100);
  const feeCents = Math.floor((grossCents * basisPoints + 5000) / 10_000);
  return { feeCents, netCents: grossCents - feeCents };
}

/**
 * The moment `business` working days (Monday to Friday, in UTC) after `iso`, at the same time of day. A payment
 * made on a weekend counts from the following Monday. Public holidays are not skipped (they differ by country).
 */
export function addBusinessDays(iso: string, business: number): string {
  let at = new Date(iso).getTime();
  const weekday = (ms: number) => new Date(ms).getUTCDay();
  while (weekday(at) === 0 || weekday(at) === 6) at += DAY;
  let left = business;
  while (left > 0) {
    at += DAY;
    if (weekday(at) !== 0 && weekday(at) !== 6) left -= 1;
  }
  return new Date(at).toISOString();
}

export const releaseDateOf = (paidAt: string) => addBusinessDays(paidAt, HOLD_BUSINESS_DAYS);

/** A paying request without its key: the key is what makes a retry safe. */
export const KEY_NEEDED = message("A payment needs an idempotency key: a new one for each attempt.");

export const IDEMPOTENCY_KEY_REUSED = message(
  "This request was already made with different details. Reload the page and try again.",
);
export const ALREADY_PURCHASED = message("You already bought this post.");
export const NOT_FOR_SALE = message("This post is not for sale.");
export const TIP_AMOUNT_RANGE = message("A tip is between {{min, money}} and {{max, money}}.");
export const TOP_UP_AMOUNT_RANGE = message("A top-up is between {{min, money}} and {{max, money}}.");

/** The client's key, prefixed so that it can never collide with the keys the cron derives ("s:…"). */
export const clientKey = (key: string) => `u:${key}`;
export const systemKey = (key: string) => `s:${key}`;
