import { env } from "cloudflare:test";
import { setClockForTests } from "@shared/clock";

/**
 * Stops the Worker's clock (worker/domain/shared/time.ts) at `at`, for tests about time: timestamps that must
 * differ, windows that must pass. Requests answered by SELF run in this isolate, so they read the same clock.
 * tests/worker/setup.ts lets it run again after every test.
 */
export function stopClockAt(at: Date): void {
  setClockForTests(env, at);
}
