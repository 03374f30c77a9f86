/**
 * The clock, in one place so that tests and the domain agree on "now". The worker tests can stop it at a chosen
 * instant (setClockForTests) where time is what they test; it always runs in production.
 */
let stoppedAt: number | null = null;
export const now = () => new Date(stoppedAt ?? Date.now());
/**
 * The last instant written by isoNow: the runtime's clock stands still while a request computes, and a request
 * asks for "now" several times (writing it was 2% of a `GET /api/updates`).
 */
let lastInstant = { ms: NaN, iso: "" };
export const isoNow = () => {
  const ms = stoppedAt ?? Date.now();
  if (ms !== lastInstant.ms) lastInstant = { ms, iso: new Date(ms).toISOString() };
  return lastInstant.iso;
};
export const isoIn = (ms: number) => new Date(now().getTime() + ms).toISOString();

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * Stops the clock at `at` (null: lets it run again). Only when APP_ENV is "test" (the worker tests' environment);
 * anywhere else it throws, so no request or misconfiguration can move production's clock.
 */
export function setClockForTests(env: { APP_ENV?: string }, at: Date | null): void {
  if (env.APP_ENV !== "test") throw new Error("The clock can only be set in the worker tests (APP_ENV=test).");
  stoppedAt = at === null ? null : at.getTime();
}
