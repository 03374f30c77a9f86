import { afterEach, describe, expect, it, vi } from "vitest";
import { boundedWait } from "../support/bounded-wait";

afterEach(() => vi.useRealTimers());

describe("a bounded wait (tests/support/bounded-wait.ts)", () => {
  it("fails at its bound, naming what it waited for, where the wait alone would hang", async () => {
    vi.useFakeTimers();
    const waiting = boundedWait(new Promise(() => {}), "the socket's hello", 5_000);
    const settled = vi.fn();
    waiting.then(settled, settled);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(waiting).rejects.toThrow("timed out after 5000 ms waiting for the socket's hello");
  });

  it("passes the value and the failure of what it waited for through, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    await expect(boundedWait(Promise.resolve(3), "three", 5_000)).resolves.toBe(3);
    await expect(boundedWait(Promise.reject(new Error("refused")), "a refusal", 5_000)).rejects.toThrow("refused");
    expect(vi.getTimerCount()).toBe(0);
  });
});
