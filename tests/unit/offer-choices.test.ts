import { describe, expect, it } from "vitest";
import type { PromotionOffer } from "@shared/contracts/offers";
import type { PlanView } from "@shared/contracts/subscriptions";
import { buttonOffer, planChoices, timeLeft } from "~/components/profile/offer-choices";

const week: PlanView = { period: "week", priceCents: 499 };
const month: PlanView = { period: "month", priceCents: 999 };
const year: PlanView = { period: "year", priceCents: 9999 };
const ends = "2030-01-03T12:00:00.000Z";
const promotion = (fields: Partial<PromotionOffer>): PromotionOffer => ({
  id: 7,
  percentOff: 50,
  trialDays: null,
  periods: 1,
  endsAt: ends,
  claimsLeft: 12,
  ...fields,
});
// 3 months of $9.99 at 10% off: $29.97 less $3.00 (rounded half up) is $26.97.
const threeMonths = { months: 3 as const, discountPercent: 10, priceCents: 2697 };

describe("buttonOffer: what the Subscribe button says", () => {
  it("shows the cheapest paid plan", () => {
    expect(buttonOffer([month, week, year], null)).toEqual({ kind: "paid", period: "week", priceCents: 499 });
  });

  it("says free when a plan is free, and nothing without plans", () => {
    expect(buttonOffer([{ period: "month", priceCents: 0 }, year], null)).toEqual({ kind: "free" });
    expect(buttonOffer([], null)).toBeNull();
  });

  it("shows the promotion's price on the cheapest plan with the regular one, its end and places left", () => {
    expect(buttonOffer([month, year], promotion({ percentOff: 50 }))).toEqual({
      kind: "promotion",
      period: "month",
      priceCents: 500,
      regularCents: 999,
      endsAt: ends,
      claimsLeft: 12,
    });
  });

  it("shows a promotion at 100% off as its free days", () => {
    expect(buttonOffer([month], promotion({ percentOff: 100, trialDays: 7, claimsLeft: null }))).toEqual({
      kind: "trial",
      days: 7,
      period: "month",
      regularCents: 999,
      endsAt: ends,
      claimsLeft: null,
    });
  });
});

describe("planChoices: the chooser's lines", () => {
  it("lists the plain plans, then the bundles of the monthly plan with what they save", () => {
    const choices = planChoices([month, year], [threeMonths], null);
    expect(choices.map((choice) => [choice.key, choice.nowCents, choice.regularCents, choice.savingsCents])).toEqual([
      ["month", 999, 999, 0],
      ["year", 9999, 9999, 0],
      ["month-3", 2697, 2697, 300],
    ]);
    expect(choices[2]).toMatchObject({ period: "month", bundleMonths: 3, freeDays: null, promotionId: null });
  });

  it("applies a promotion to the paid plain plans for its periods, never to bundles or free plans", () => {
    const free: PlanView = { period: "week", priceCents: 0 };
    const choices = planChoices([free, month, year], [threeMonths], promotion({ percentOff: 20, periods: 3 }));
    expect(
      choices.map((choice) => [choice.key, choice.nowCents, choice.discountedCharges, choice.promotionId]),
    ).toEqual([
      ["week", 0, 0, null],
      // $9.99 less 20% is $7.992, $99.99 less 20% is $79.992: rounded to $7.99 and $79.99.
      ["month", 799, 3, 7],
      ["year", 7999, 3, 7],
      ["month-3", 2697, 0, null],
    ]);
  });

  it("makes a promotion at 100% off a free start of its days, then the regular price", () => {
    const [choice] = planChoices([month], [], promotion({ percentOff: 100, trialDays: 5 }));
    expect(choice).toMatchObject({ nowCents: 0, regularCents: 999, freeDays: 5, promotionId: 7 });
  });

  it("in trial mode, makes every paid plan and bundle free for the trial's days, leaving out free plans", () => {
    const choices = planChoices(
      [{ period: "week", priceCents: 0 }, month],
      [threeMonths],
      promotion({ percentOff: 50 }),
      { code: "summer", days: 7, endsAt: ends },
    );
    expect(choices.map((choice) => [choice.key, choice.nowCents, choice.regularCents, choice.freeDays])).toEqual([
      ["month", 0, 999, 7],
      ["month-3", 0, 2697, 7],
    ]);
    expect(choices.every((choice) => choice.promotionId === null)).toBe(true);
  });

  it("offers no bundle without a paid monthly plan", () => {
    expect(planChoices([year], [threeMonths], null).map((choice) => choice.key)).toEqual(["year"]);
    expect(planChoices([{ period: "month", priceCents: 0 }], [threeMonths], null).map((choice) => choice.key)).toEqual([
      "month",
    ]);
  });
});

describe("timeLeft: how long a promotion still runs", () => {
  const at = Date.parse("2030-01-01T00:00:00.000Z");
  it("counts the nearest days, then hours, then minutes (at least one)", () => {
    expect(timeLeft("2030-01-03T05:00:00.000Z", at)).toEqual({ value: 2, unit: "day" });
    // 4 days and 23 hours read as 5 days, not 4.
    expect(timeLeft("2030-01-05T23:00:00.000Z", at)).toEqual({ value: 5, unit: "day" });
    expect(timeLeft("2030-01-01T22:40:00.000Z", at)).toEqual({ value: 23, unit: "hour" });
    expect(timeLeft("2030-01-01T00:00:30.000Z", at)).toEqual({ value: 1, unit: "minute" });
    expect(timeLeft("2029-12-31T00:00:00.000Z", at)).toEqual({ value: 1, unit: "minute" });
  });
});
