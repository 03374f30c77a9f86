import { describe, expect, it } from "vitest";
import { addMonths } from "../../worker/domain/subscriptions/periods";
import { renewalOf, type DueSubscription } from "../../worker/domain/subscriptions/renewal-price";

const end = "2030-01-31T12:00:00.000Z";

/** A monthly subscription at $10.00 due at `end`, its plan still $10.00 today, no offer, no change pending. */
const due = (fields: Partial<DueSubscription> = {}): DueSubscription => ({
  id: 1,
  fan_id: 2,
  creator_id: 3,
  period: "month",
  bundle_months: null,
  price_cents: 1000,
  current_period_end: end,
  trial_ends_at: null,
  offer_id: null,
  offer_percent: 0,
  offer_renewals_left: 0,
  next_period: null,
  next_bundle_months: null,
  next_price_cents: null,
  creator_ok: 1,
  plan_cents: 1000,
  discount_percent: null,
  monthly_cents: 1000,
  ...fields,
});

describe("renewalOf", () => {
  it("renews the plan for one period at its price", () => {
    expect(renewalOf(due())).toEqual({
      plan: { period: "month", bundleMonths: null },
      regularCents: 1000,
      chargeCents: 1000,
      nextEnd: addMonths(end, 1),
      renewalsLeft: 0,
      pricedBy: null,
      trialEnding: false,
    });
    expect(renewalOf(due({ period: "week", plan_cents: 1000 }))!.nextEnd).toBe("2030-02-07T12:00:00.000Z");
  });

  it("never raises the price agreed, and follows a lower one", () => {
    expect(renewalOf(due({ plan_cents: 1500 }))).toMatchObject({ regularCents: 1000, chargeCents: 1000 });
    expect(renewalOf(due({ plan_cents: 700 }))).toMatchObject({ regularCents: 700, chargeCents: 700 });
    expect(renewalOf(due({ plan_cents: 0 }))).toMatchObject({ regularCents: 0, chargeCents: 0 });
  });

  it("renews a bundle for its months at the lower of the agreed and today's bundle price", () => {
    const bundle = { bundle_months: 3, price_cents: 2700, discount_percent: 10 };
    expect(renewalOf(due(bundle))).toMatchObject({
      plan: { period: "month", bundleMonths: 3 },
      chargeCents: 2700,
      nextEnd: addMonths(end, 3),
    });
    expect(renewalOf(due({ ...bundle, monthly_cents: 800 }))).toMatchObject({ chargeCents: 2160 });
    expect(renewalOf(due({ ...bundle, monthly_cents: 1200 }))).toMatchObject({ chargeCents: 2700 });
  });

  it("lets a plan change take over: its plan, its period and the lower of the price shown and today's", () => {
    const toWeek = { next_period: "week" as const, next_price_cents: 500, plan_cents: 500 };
    expect(renewalOf(due(toWeek))).toMatchObject({
      plan: { period: "week", bundleMonths: null },
      regularCents: 500,
      chargeCents: 500,
      nextEnd: "2030-02-07T12:00:00.000Z",
    });
    expect(renewalOf(due({ ...toWeek, plan_cents: 650 }))).toMatchObject({ chargeCents: 500 });
    expect(renewalOf(due({ ...toWeek, plan_cents: 400 }))).toMatchObject({ chargeCents: 400 });
    // A change to a dearer plan is charged its own price, not the old plan's.
    expect(renewalOf(due({ next_period: "year", next_price_cents: 9000, plan_cents: 9000 }))).toMatchObject({
      chargeCents: 9000,
      nextEnd: addMonths(end, 12),
    });
    // From a bundle back to the plain month.
    expect(
      renewalOf(
        due({
          bundle_months: 3,
          price_cents: 2700,
          next_period: "month",
          next_price_cents: 1000,
          discount_percent: null,
        }),
      ),
    ).toMatchObject({ plan: { period: "month", bundleMonths: null }, chargeCents: 1000, nextEnd: addMonths(end, 1) });
    // To a bundle.
    expect(
      renewalOf(due({ next_period: "month", next_bundle_months: 6, next_price_cents: 4800, discount_percent: 20 })),
    ).toMatchObject({ plan: { period: "month", bundleMonths: 6 }, chargeCents: 4800, nextEnd: addMonths(end, 6) });
  });

  it("counts an offer's discounted renewals down, then charges the regular price", () => {
    const offer = { offer_id: 7, offer_percent: 50 };
    expect(renewalOf(due({ ...offer, offer_renewals_left: 2 }))).toMatchObject({
      regularCents: 1000,
      chargeCents: 500,
      renewalsLeft: 1,
      pricedBy: 7,
    });
    expect(renewalOf(due({ ...offer, offer_renewals_left: 1 }))).toMatchObject({
      chargeCents: 500,
      renewalsLeft: 0,
      pricedBy: 7,
    });
    expect(renewalOf(due({ ...offer, offer_renewals_left: 0 }))).toMatchObject({
      chargeCents: 1000,
      renewalsLeft: 0,
      pricedBy: null,
    });
    // The discount is taken off the price actually due (a lower plan price, half up to the cent).
    expect(renewalOf(due({ ...offer, offer_renewals_left: 1, plan_cents: 999 }))).toMatchObject({ chargeCents: 500 });
  });

  it("ends a free trial at the plan's price, priced by the trial's offer", () => {
    const trial = { trial_ends_at: end, offer_id: 9 };
    expect(renewalOf(due(trial))).toMatchObject({ chargeCents: 1000, trialEnding: true, pricedBy: 9 });
    // Past the trial, the renewals are plain ones.
    expect(renewalOf(due({ ...trial, trial_ends_at: "2029-12-31T12:00:00.000Z" }))).toMatchObject({
      trialEnding: false,
      pricedBy: null,
    });
  });

  it("is null when the plan is withdrawn or the creator can no longer be paid", () => {
    expect(renewalOf(due({ plan_cents: null }))).toBeNull();
    expect(renewalOf(due({ creator_ok: 0 }))).toBeNull();
    expect(renewalOf(due({ bundle_months: 3, discount_percent: null }))).toBeNull();
    expect(renewalOf(due({ bundle_months: 3, discount_percent: 10, monthly_cents: 0 }))).toBeNull();
    expect(renewalOf(due({ bundle_months: 3, discount_percent: 10, monthly_cents: null }))).toBeNull();
    expect(renewalOf(due({ next_period: "week", next_price_cents: 500, plan_cents: null }))).toBeNull();
  });
});
