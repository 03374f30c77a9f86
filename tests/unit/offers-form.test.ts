import { describe, expect, it } from "vitest";
import { AppError } from "../../worker/domain/shared/errors";
import {
  offerIdFromForm,
  promotionFromForm,
  retentionFromForm,
  trialLinkFromForm,
} from "../../worker/domain/offers/offers-form";

const ENDS_AT = "2030-05-31T21:59:59.999Z";
const INVALID = "Invalid value";

function refusal(read: () => unknown): AppError {
  try {
    read();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("the form was accepted");
}

describe("promotionFromForm: Dashboard → Promotions, a new promotion", () => {
  const promotion = {
    percentOff: "25",
    trialDays: "7",
    audience: "both",
    periods: "3",
    claimLimit: "",
    endsAt: ENDS_AT,
  };

  it("reads a discount without a trial (the trial field, hidden, is left out) and no claim limit", () => {
    expect(promotionFromForm(promotion)).toEqual({
      percentOff: 25,
      audience: "both",
      periods: 3,
      claimLimit: null,
      endsAt: ENDS_AT,
    });
  });

  it("reads a free trial at 100% off, for new fans, with a claim limit (the periods field, hidden, is left out)", () => {
    expect(
      promotionFromForm({ ...promotion, percentOff: "100%", audience: "new", periods: "99", claimLimit: " 50 " }),
    ).toEqual({ percentOff: 100, trialDays: 7, audience: "new", periods: 1, claimLimit: 50, endsAt: ENDS_AT });
  });

  it("asks for the trial's length at 100% off, on its field, with the other fields' errors", () => {
    const error = refusal(() => promotionFromForm({ ...promotion, percentOff: "100", trialDays: "" }));
    expect(error.fieldErrors).toEqual({ trialDays: ["At 100% off, choose how many days the free trial lasts."] });
    expect(
      refusal(() => promotionFromForm({ ...promotion, percentOff: "100", trialDays: "", endsAt: "" })).fieldErrors,
    ).toEqual({
      endsAt: ["Choose an end date."],
      trialDays: ["At 100% off, choose how many days the free trial lasts."],
    });
    expect(refusal(() => promotionFromForm({ ...promotion, percentOff: "100", trialDays: "31" })).fieldErrors).toEqual({
      trialDays: ["A free trial lasts {{min}} to {{max}} days."],
    });
  });

  it("names each bad field", () => {
    const error = refusal(() =>
      promotionFromForm({ percentOff: "4", audience: "everyone", periods: "13", claimLimit: "0", endsAt: "" }),
    );
    expect(error.code).toBe("validation");
    expect(error.fieldErrors).toEqual({
      percentOff: ["A promotion takes {{min}}% to {{max}}% off."],
      audience: ["Choose who the promotion is for."],
      periods: ["The price can hold for 1 to {{max}} periods."],
      claimLimit: ["A claim limit is between 1 and {{max}}."],
      endsAt: ["Choose an end date."],
    });
    expect(refusal(() => promotionFromForm({ ...promotion, percentOff: "ten" })).fieldErrors).toEqual({
      percentOff: [INVALID],
    });
    expect(refusal(() => promotionFromForm({ ...promotion, claimLimit: "2.5" })).fieldErrors).toEqual({
      claimLimit: [INVALID],
    });
  });
});

describe("trialLinkFromForm: a new free-trial link", () => {
  it("reads the days, the claim limit and the code (lowercased), or none", () => {
    expect(trialLinkFromForm({ days: "14", claimLimit: "100", endsAt: ENDS_AT, code: " Summer-24 " })).toEqual({
      days: 14,
      claimLimit: 100,
      endsAt: ENDS_AT,
      code: "summer-24",
    });
    expect(trialLinkFromForm({ days: "1", claimLimit: "", endsAt: ENDS_AT, code: "" })).toEqual({
      days: 1,
      claimLimit: null,
      endsAt: ENDS_AT,
    });
  });

  it("names each bad field", () => {
    const error = refusal(() => trialLinkFromForm({ days: "0", claimLimit: "100001", endsAt: "soon", code: "a b" }));
    expect(error.fieldErrors).toEqual({
      days: ["A free trial lasts {{min}} to {{max}} days."],
      claimLimit: ["A claim limit is between 1 and {{max}}."],
      endsAt: ["Choose an end date."],
      code: ["A link's code is 4 to 32 lowercase letters, digits or dashes."],
    });
    expect(refusal(() => trialLinkFromForm({ days: "", endsAt: ENDS_AT, code: "abc" })).fieldErrors).toEqual({
      days: [INVALID],
      code: ["A link's code is 4 to 32 lowercase letters, digits or dashes."],
    });
  });
});

describe("retentionFromForm: the retention offer", () => {
  it("is on with its terms when ticked, off otherwise (whatever the terms say)", () => {
    expect(retentionFromForm({ active: "on", percentOff: "50", periods: "2" })).toEqual({
      active: true,
      percentOff: 50,
      periods: 2,
    });
    expect(retentionFromForm({ percentOff: "500", periods: "" })).toEqual({ active: false });
  });

  it("names each bad term", () => {
    expect(refusal(() => retentionFromForm({ active: "on", percentOff: "91", periods: "0" })).fieldErrors).toEqual({
      percentOff: ["A retention offer takes {{min}}% to {{max}}% off."],
      periods: ["The price can hold for 1 to {{max}} periods."],
    });
  });
});

describe("offerIdFromForm: the offer to end", () => {
  it("reads a row id, and refuses anything else", () => {
    expect(offerIdFromForm({ offerId: "42" })).toBe(42);
    expect(refusal(() => offerIdFromForm({ offerId: "07" })).fieldErrors).toEqual({ offerId: [INVALID] });
    expect(refusal(() => offerIdFromForm({})).fieldErrors).toEqual({ offerId: [INVALID] });
  });
});
