/**
 * An amount typed in dollars ("12.50", "12,50", "$12", " 12 ") as integer cents; null when it is not one. The
 * server checks the range: this only reads what the person typed.
 */
export function centsFromDollars(text: string): number | null {
  const match = /^\$?\s*(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  return match ? Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0")) : null;
}
