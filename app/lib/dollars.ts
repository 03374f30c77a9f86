/** Amounts in US dollars as people type and read them; the API always takes and gives integer cents. */

/** Cents as the reader's language writes US dollars ("$12.50", "12,50 $US"). */
export const formatCents = (cents: number, language: string) =>
  new Intl.NumberFormat(language, { style: "currency", currency: "USD" }).format(cents / 100);

/**
 * An amount typed in dollars ("60", "12.50", "12,50", "$1,000.00") as integer cents, or null when it is not one.
 * A comma followed by exactly one or two digits at the end is a decimal comma; other commas group thousands.
 */
export function parseDollars(typed: string): number | null {
  const text = typed.trim().replace(/^\$\s*/, "").replace(/\s+/g, "");
  const decimalComma = /^\d+,\d{1,2}$/.test(text);
  const normal = decimalComma ? text.replace(",", ".") : text.replace(/,(?=\d{3}(?:\D|$))/g, "");
  if (!/^\d{1,9}(?:\.\d{1,2})?$/.test(normal)) return null;
  const [whole = "0", fraction = ""] = normal.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}
