import { describe, expect, it } from "vitest";
import { parseDollars } from "../../app/lib/dollars";

describe("parseDollars (every amount typed in dollars: top-ups, tips, withdrawals)", () => {
  it("reads dollars with a decimal point or comma as cents", () => {
    expect(parseDollars("60")).toBe(6000);
    expect(parseDollars("12.50")).toBe(1250);
    expect(parseDollars("12,50")).toBe(1250);
    expect(parseDollars("12,5")).toBe(1250);
    expect(parseDollars(" $1,000.05 ")).toBe(100_005);
    expect(parseDollars("0.07")).toBe(7);
  });

  it("refuses anything else", () => {
    for (const text of ["", "abc", "12.345", "-5", "1e3", "12..5", "1,2,3", "Infinity", "12.", ".5"]) expect(parseDollars(text)).toBeNull();
  });
});
