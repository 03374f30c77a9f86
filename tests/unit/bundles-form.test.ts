import { describe, expect, it } from "vitest";
import { AppError } from "../../worker/domain/shared/errors";
import { bundlesFromForm } from "../../worker/domain/offers/bundles-form";

const RANGE = "A bundle's discount is between {{min}}% and {{max}}%.";

function refusal(fields: Record<string, string>): AppError {
  try {
    bundlesFromForm(fields);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("the form was accepted");
}

describe("bundlesFromForm: the plans page's bundles", () => {
  it("keeps the offered lengths, shortest first, with their discounts", () => {
    expect(
      bundlesFromForm({ bundle_12: "on", discount_12: "30", bundle_3: "on", discount_3: " 10 % ", discount_6: "20" }),
    ).toEqual({
      bundles: [
        { months: 3, discountPercent: 10 },
        { months: 12, discountPercent: 30 },
      ],
    });
  });

  it("offers none when no box is ticked, whatever the discounts say", () => {
    expect(bundlesFromForm({ discount_3: "nonsense", bundle_6: "off", discount_6: "99" })).toEqual({ bundles: [] });
    expect(bundlesFromForm({})).toEqual({ bundles: [] });
  });

  it("takes the range's two ends, 5% and 50%", () => {
    expect(bundlesFromForm({ bundle_3: "on", discount_3: "5", bundle_6: "on", discount_6: "50" }).bundles).toEqual([
      { months: 3, discountPercent: 5 },
      { months: 6, discountPercent: 50 },
    ]);
  });

  it("names each bad discount's field: under 5, over 50, not a whole number, empty", () => {
    const error = refusal({
      bundle_3: "on",
      discount_3: "4",
      bundle_6: "on",
      discount_6: "12.5",
      bundle_12: "on",
      discount_12: "51",
    });
    expect(error.code).toBe("validation");
    expect(error.message).toBe(RANGE);
    expect(error.fieldErrors).toEqual({ discount_3: [RANGE], discount_6: [RANGE], discount_12: [RANGE] });
    expect(refusal({ bundle_6: "on", discount_6: "" }).fieldErrors).toEqual({ discount_6: [RANGE] });
    expect(refusal({ bundle_12: "on" }).fieldErrors).toEqual({ discount_12: [RANGE] });
  });
});
