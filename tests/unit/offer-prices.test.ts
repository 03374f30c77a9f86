import { describe, expect, it } from "vitest";
import { bundlePriceCents, bundleSavingsCents, discountedCents, giftPriceCents } from "@shared/offer-prices";

describe("discountedCents", () => {
  it("takes the percent off in whole cents, rounded half up", () => {
    expect(discountedCents(1000, 50)).toBe(500);
    expect(discountedCents(999, 50)).toBe(500); // 499.5
    expect(discountedCents(999, 10)).toBe(899); // 899.1
    expect(discountedCents(999, 35)).toBe(649); // 649.35
    expect(discountedCents(1, 50)).toBe(1); // 0.5
    expect(discountedCents(1000, 100)).toBe(0);
    expect(discountedCents(1000, 0)).toBe(1000);
    expect(discountedCents(0, 30)).toBe(0);
  });

  it("never exceeds the price nor goes below zero", () => {
    for (let cents = 0; cents <= 2000; cents += 7)
      for (let percent = 0; percent <= 100; percent += 5) {
        const price = discountedCents(cents, percent);
        expect(Number.isInteger(price)).toBe(true);
        expect(price).toBeGreaterThanOrEqual(0);
        expect(price).toBeLessThanOrEqual(cents);
      }
  });
});

describe("bundles", () => {
  it("price the months of the monthly plan at the discount, and say what they save", () => {
    expect(bundlePriceCents(1000, 10, 3)).toBe(2700);
    expect(bundlePriceCents(999, 10, 3)).toBe(2697); // 2697.3
    expect(bundlePriceCents(999, 20, 6)).toBe(4795); // 4795.2
    expect(bundlePriceCents(999, 50, 12)).toBe(5994);
    expect(bundleSavingsCents(999, 10, 3)).toBe(300);
    expect(bundleSavingsCents(1000, 50, 12)).toBe(6000);
  });

  it("price and savings add up to the months paid one at a time", () => {
    for (const months of [3, 6, 12])
      for (const percent of [5, 17, 33, 50])
        for (const monthly of [499, 999, 1234, 4999])
          expect(bundlePriceCents(monthly, percent, months) + bundleSavingsCents(monthly, percent, months)).toBe(
            monthly * months,
          );
  });
});

describe("giftPriceCents", () => {
  const bundles = [
    { months: 3, discountPercent: 10 },
    { months: 12, discountPercent: 25 },
  ];

  it("is one month at the monthly price", () => {
    expect(giftPriceCents(999, bundles, 1)).toBe(999);
  });

  it("is the creator's bundle of that length when there is one, else the months at the monthly price", () => {
    expect(giftPriceCents(999, bundles, 3)).toBe(2697);
    expect(giftPriceCents(999, bundles, 12)).toBe(8991); // 11988 less 25%
    expect(giftPriceCents(999, bundles, 6)).toBe(5994);
    expect(giftPriceCents(999, [], 12)).toBe(11_988);
  });
});
