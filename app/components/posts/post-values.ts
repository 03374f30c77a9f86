/** Conversions between what a person types in the post forms and what the API takes. Pure, for unit tests. */

/** What the composer and the edit dialog send: cents from a dollar amount the person typed ("" is free). */
export function centsFromDollars(dollars: string): number {
  const trimmed = dollars.trim();
  if (trimmed === "") return 0;
  const amount = Number(trimmed.replace(",", "."));
  return Number.isFinite(amount) ? Math.round(amount * 100) : Number.NaN;
}

export const dollarsFromCents = (cents: number) => (cents === 0 ? "" : (cents / 100).toFixed(2));

/**
 * A datetime-local value ("2026-11-23T18:30", the browser's zone) to a UTC instant; null when empty or
 * invalid. The browser knows the person's zone, so the conversion happens here and the server gets UTC.
 */
export function isoFromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?$/.test(value)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** A UTC instant as a datetime-local value in the browser's zone. */
export function localInputFromIso(iso: string): string {
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
