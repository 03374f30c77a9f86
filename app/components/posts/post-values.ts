/** Conversions between what a person types in the post forms and what the API takes. Pure, for unit tests. */
import { parseDollars, typedDollars } from "@shared/typed-dollars";

/** What the composer and the edit dialog send: the cents of the typed price, 0 when left empty (free), null when it is not an amount. */
export const centsFromDollars = (dollars: string): number | null => (dollars.trim() === "" ? 0 : parseDollars(dollars));

/** The price field of a post being edited: empty when free. */
export const dollarsFromCents = (cents: number) => (cents === 0 ? "" : typedDollars(cents));

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
