import { describe, expect, it } from "vitest";
import { AppError } from "../../worker/domain/shared/errors";
import { plansFromForm } from "../../worker/domain/subscriptions/plans-form";

const FORMAT = "Enter a price in dollars, like 9.99.";
const PLAN_RANGE = "A paid plan costs between {{min, money}} and {{max, money}}; 0 makes it free.";
const MESSAGE_RANGE = "A message costs at most {{max, money}}; 0 makes messages free.";

function refusal(fields: Record<string, string>): AppError {
  try {
    plansFromForm(fields);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("the form was accepted");
}

describe("plansFromForm: the dashboard's plans form", () => {
  it("keeps the offered periods, weekly before monthly before yearly, with their prices in cents", () => {
    expect(
      plansFromForm({
        offer_year: "on",
        price_year: "$1,000",
        offer_week: "on",
        price_week: "4.99",
        offer_month: "on",
        price_month: "9,9",
        message_price: "2.50",
      }),
    ).toEqual({
      plans: [
        { period: "week", priceCents: 499 },
        { period: "month", priceCents: 990 },
        { period: "year", priceCents: 100_000 },
      ],
      messagePriceCents: 250,
    });
  });

  it("leaves out periods not offered, whatever their price field says", () => {
    expect(
      plansFromForm({ offer_week: "off", price_week: "5", price_month: "nonsense", offer_year: "on", price_year: "0" }),
    ).toEqual({ plans: [{ period: "year", priceCents: 0 }] });
    expect(plansFromForm({})).toStrictEqual({ plans: [] });
  });

  it("takes a free plan (0) and the paid range's two ends", () => {
    expect(
      plansFromForm({
        offer_week: "on",
        price_week: "0",
        offer_month: "on",
        price_month: "4.99",
        offer_year: "on",
        price_year: "1000.00",
      }).plans.map((plan) => plan.priceCents),
    ).toEqual([0, 499, 100_000]);
  });

  it("names each bad price's field: not an amount, under $4.99 or over $1,000", () => {
    const error = refusal({
      offer_week: "on",
      price_week: "4.98",
      offer_month: "on",
      price_month: "19.999",
      offer_year: "on",
      price_year: "1000.01",
    });
    expect(error.code).toBe("validation");
    expect(error.message).toBe(PLAN_RANGE);
    expect(error.fieldErrors).toEqual({ price_week: [PLAN_RANGE], price_month: [FORMAT], price_year: [PLAN_RANGE] });
    expect(refusal({ offer_week: "on", price_week: "0.01" }).fieldErrors).toEqual({ price_week: [PLAN_RANGE] });
    expect(refusal({ offer_month: "on" }).fieldErrors).toEqual({ price_month: [FORMAT] });
  });

  it("reads the message price: free (0) to $200, unchanged when the field is absent", () => {
    expect(plansFromForm({ message_price: "0" })).toEqual({ plans: [], messagePriceCents: 0 });
    expect(plansFromForm({ message_price: "0.01" })).toEqual({ plans: [], messagePriceCents: 1 });
    expect(plansFromForm({ message_price: "200" })).toEqual({ plans: [], messagePriceCents: 20_000 });
    expect(refusal({ message_price: "200.01" }).fieldErrors).toEqual({ message_price: [MESSAGE_RANGE] });
    const error = refusal({ message_price: "" });
    expect(error.message).toBe(FORMAT);
    expect(error.fieldErrors).toEqual({ message_price: [FORMAT] });
  });

  it("reports a bad message price with the bad plan prices, the first one as the message", () => {
    const error = refusal({ offer_week: "on", price_week: "x", message_price: "300" });
    expect(error.message).toBe(FORMAT);
    expect(error.fieldErrors).toEqual({ price_week: [FORMAT], message_price: [MESSAGE_RANGE] });
  });
});
