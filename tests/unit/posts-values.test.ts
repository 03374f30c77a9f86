import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  centsFromDollars,
  dollarsFromCents,
  isoFromLocalInput,
  localInputFromIso,
} from "~/components/posts/post-values";

describe("post form values", () => {
  it("prices: the typed dollars as cents, empty is free, anything else is no price (null)", () => {
    expect(centsFromDollars("")).toBe(0);
    expect(centsFromDollars("   ")).toBe(0);
    expect(centsFromDollars(" 4.99 ")).toBe(499);
    expect(centsFromDollars("4,99")).toBe(499);
    expect(centsFromDollars("1,000.00")).toBe(100_000);
    expect(centsFromDollars("19.999")).toBeNull();
    expect(centsFromDollars("abc")).toBeNull();
    expect(dollarsFromCents(0)).toBe("");
    expect(dollarsFromCents(1250)).toBe("12.50");
    expect(dollarsFromCents(5)).toBe("0.05");
  });

  describe("in a zone far from UTC", () => {
    const original = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = "Asia/Kolkata";
    });
    afterAll(() => {
      process.env.TZ = original;
    });

    it("a datetime-local value is the person's wall clock, sent as the UTC instant", () => {
      expect(isoFromLocalInput("2030-06-01T09:30")).toBe("2030-06-01T04:00:00.000Z");
      expect(isoFromLocalInput("2030-06-01T09:30:15")).toBe("2030-06-01T04:00:15.000Z");
      expect(localInputFromIso("2030-06-01T04:00:00.000Z")).toBe("2030-06-01T09:30");
    });

    it("keeps seconds and their fraction, and pads every part when writing a value back", () => {
      expect(isoFromLocalInput("2030-06-01T09:30:15.250")).toBe("2030-06-01T04:00:15.250Z");
      expect(localInputFromIso("2030-01-01T21:34:00.000Z")).toBe("2030-01-02T03:04");
      expect(isoFromLocalInput("2030-01-02T03:04")).toBe("2030-01-01T21:34:00.000Z");
    });

    it("empty or malformed values are no time at all", () => {
      for (const value of [
        "",
        "tomorrow",
        "2030-06-01",
        "2030-13-45T99:99",
        "2030-13-01T10:00",
        "2030-06-01T09:30Z",
        "x2030-06-01T09:30",
        "2030-06-01T09:30x",
        "30-06-01T09:30",
        "2030-06-01T09:30:1",
        "2030-06-01T09:30:15.",
      ])
        expect(isoFromLocalInput(value), value).toBeNull();
    });
  });
});
