/**
 * Money as people type and read it, for the page and the Worker alike. Amounts are integer cents (USD)
 * everywhere else; this is the one place where typed dollars become cents and cents become text.
 */

import { formatWithPattern, learntMoneyPattern } from "./money-pattern";

/**
 * One rule for every amount typed in dollars (top-up, tip, withdrawal, post price, plan price, message price):
 * an optional "$", then whole dollars, then at most two decimals. Whole dollars are plain digits (at most 7) or
 * groups of three separated by commas ("1,000", "9,999,999"); decimals follow a point, or, after plain digits
 * only, a comma as many languages write it ("12,50"). So a comma followed by exactly three digits groups
 * thousands and one followed by one or two digits is a decimal comma. The largest amount is $9,999,999.99,
 * far inside safe integers; which amounts a field allows is the field's own limit.
 */
const AMOUNT = /^\$?\s*(?:(\d{1,7})(?:[.,](\d{1,2}))?|([1-9](?:\d{0,2},\d{3}|,\d{3},\d{3}))(?:\.(\d{1,2}))?)$/;

/**
 * The cents of an amount typed in dollars ("60", "12.50", "12,5", "$1,000.05"), or null when the text breaks
 * the rule above: empty, negative, exponents, three decimals (refused, never rounded), misplaced commas.
 * Computed on the digits, without floating point.
 */
export function parseDollars(typed: string): number | null {
  const match = AMOUNT.exec(typed.trim());
  if (!match) return null;
  const whole = (match[1] ?? match[3]!).replaceAll(",", "");
  const fraction = (match[2] ?? match[4] ?? "").padEnd(2, "0");
  return Number(whole) * 100 + Number(fraction);
}

/** One currency formatter per language: building an Intl.NumberFormat costs far more than formatting with it. */
const currencyFormats = new Map<string, Intl.NumberFormat>();

/** Cents as the reader's language writes US dollars ("$1,250.00", "1.250,00 $"). */
export function formatCents(cents: number, language: string): string {
  // In the browser, the pattern the server gave (shared/money-pattern.ts): no Intl formatter, the server's text.
  const pattern = learntMoneyPattern(language);
  const written = pattern ? formatWithPattern(pattern, cents) : null;
  if (written !== null) return written;
  let format = currencyFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language, { style: "currency", currency: "USD" });
    currencyFormats.set(language, format);
  }
  return format.format(cents / 100);
}

/** Cents as a form field shows them for editing, in the form parseDollars reads back: "1250.00", "0.07". */
export const typedDollars = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
