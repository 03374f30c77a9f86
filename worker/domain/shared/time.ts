import { now, nowMs } from "@shared/clock";

/**
 * The last instant written by isoNow: the runtime's clock stands still while a request computes, and a request
 * asks for "now" several times (writing it was 2% of a `GET /api/updates`).
 */
let lastInstant = { ms: NaN, iso: "" };
export const isoNow = () => {
  const ms = nowMs();
  if (ms !== lastInstant.ms) lastInstant = { ms, iso: new Date(ms).toISOString() };
  return lastInstant.iso;
};
export const isoIn = (ms: number) => new Date(now().getTime() + ms).toISOString();

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
