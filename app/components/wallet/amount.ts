/**
 * A typed top-up amount in dollars ("25", "12.50", "12,50": either decimal mark, at most two decimals) as cents;
 * null when it is not such an amount. Pure, for unit tests; the server's action calls it.
 */
export function centsFromTypedDollars(text: string): number | null {
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}
