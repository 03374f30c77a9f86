/**
 * Money as people type it, for the page's forms and the Worker alike: the one place where typed dollars become
 * cents, and cents become a field's text again. Apart from money.ts, so a page with no amount to type carries none.
 */

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

/** Cents as a form field shows them for editing, in the form parseDollars reads back: "1250.00", "0.07". */
export const typedDollars = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
