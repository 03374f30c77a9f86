/**
 * The clock, in one place so that tests, the domain and the rules of request bodies (a post scheduled in the
 * future) agree on "now". The worker tests can stop it at a chosen instant (setClockForTests) where time is what
 * they test; it always runs in production.
 */
let stoppedAt: number | null = null;

/** Milliseconds since the epoch. */
export const nowMs = () => stoppedAt ?? Date.now();
export const now = () => new Date(nowMs());

/**
 * Stops the clock at `at` (null: lets it run again). Only when APP_ENV is "test" (the worker tests' environment);
 * anywhere else it throws, so no request or misconfiguration can move production's clock.
 */
export function setClockForTests(env: { APP_ENV?: string }, at: Date | null): void {
  if (env.APP_ENV !== "test") throw new Error("The clock can only be set in the worker tests (APP_ENV=test).");
  stoppedAt = at === null ? null : at.getTime();
}
