/**
 * Money as people read it, for the page and the Worker alike. Amounts are integer cents (USD) everywhere else;
 * this is the one place where cents become text (typed dollars become cents in typed-dollars.ts).
 */

import { formatWithPattern, learntMoneyPattern } from "./money-pattern";

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
