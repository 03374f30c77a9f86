import { afterEach, describe, expect, it } from "vitest";
import { setClockForTests } from "@shared/clock";
import { isoNow } from "@worker/domain/shared/time";

const testEnv = { APP_ENV: "test" };

describe("the clock (shared/clock.ts) and isoNow (worker/domain/shared/time.ts)", () => {
  afterEach(() => setClockForTests(testEnv, null));

  it("writes the instant it is asked at, again each time the clock moves, by a millisecond too", () => {
    for (const at of [
      "2026-01-01T00:00:00.000Z",
      "2026-01-01T00:00:00.001Z",
      "2031-07-04T09:01:00.000Z",
      "2026-01-01T00:00:00.000Z",
    ]) {
      setClockForTests(testEnv, new Date(at));
      expect(isoNow()).toBe(at);
      expect(isoNow()).toBe(at);
    }
    setClockForTests(testEnv, null);
    const before = Date.now();
    const written = Date.parse(isoNow());
    expect(written).toBeGreaterThanOrEqual(before);
    expect(written).toBeLessThanOrEqual(Date.now());
  });

  it("cannot be stopped outside the worker tests", () => {
    expect(() => setClockForTests({ APP_ENV: "production" }, new Date())).toThrow();
  });
});
