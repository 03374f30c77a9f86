import { boundedWait } from "../support/bounded-wait";

/**
 * Waits for what the Worker does after its answer (a socket frame or close, a row written in waitUntil). Each is
 * bounded well under the test's own time-out (vitest.worker.config.ts, 30 s) and fails naming what it waited
 * for; the bound is generous, so a busy machine only makes a passing wait slower, never a failing one.
 */
const WAIT_MS = 10_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition()` holds; throws "timed out waiting for <what>" after WAIT_MS. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${WAIT_MS} ms waiting for ${what}`);
    await pause(10);
  }
}

/** `promise`'s value, or "timed out waiting for <what>" after WAIT_MS (a socket's close, an event). */
export const within = <T>(promise: Promise<T>, what: string): Promise<T> => boundedWait(promise, what, WAIT_MS);

/**
 * A request to the Worker (SELF.fetch) answers within ANSWER_MS or fails naming the request. Longer than WAIT_MS:
 * its answer comes after the work it left to waitUntil (tests/worker/entry.ts), each round bounded by WAIT_MS.
 */
const ANSWER_MS = 25_000;
export const answerTo = (request: string, response: Promise<Response>): Promise<Response> =>
  boundedWait(response, `the answer to ${request}`, ANSWER_MS);

/** Retries `check` (assertions) until it passes; after WAIT_MS its last failure is thrown, which says what failed. */
export async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await pause(20);
    }
  }
}
