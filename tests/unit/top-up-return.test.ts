import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { rememberTopUpReturn, takeTopUpReturn } from "../../app/components/wallet/top-up-return";

const KEY = "fanclub-top-up-return";
let stored: Map<string, string>;

beforeEach(() => {
  stored = new Map();
  vi.stubGlobal("sessionStorage", {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("the path a top-up returns to", () => {
  it("is taken back once", () => {
    rememberTopUpReturn("/mia.rivers?tab=media");
    expect(takeTopUpReturn()).toBe("/mia.rivers?tab=media");
    expect(takeTopUpReturn()).toBeNull();
  });

  it("is forgotten after half an hour", () => {
    vi.useFakeTimers({ now: new Date("2026-11-29T10:00:00Z") });
    rememberTopUpReturn("/mia.rivers");
    vi.setSystemTime(new Date("2026-11-29T10:30:01Z"));
    expect(takeTopUpReturn()).toBeNull();
  });

  // The one rule of redirect parameters (shared/local-path.ts), not one of its own: a NUL or a character the URL
  // parser would encode is no path of this site either.
  it.each([
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/\u0000/x",
    "/café",
    "",
    "home",
  ])("is never %j", (path) => {
    rememberTopUpReturn(path);
    expect(stored.has(KEY)).toBe(false);
    // Nor when the stored value was written by something else.
    stored.set(KEY, JSON.stringify({ path, at: Date.now() }));
    expect(takeTopUpReturn()).toBeNull();
  });
});
