import { describe, expect, it } from "vitest";
import { cardExpired, CardSchema, passesLuhn } from "../../shared/contracts/money-bodies";
import { sandboxOutcome } from "../../worker/domain/money/providers/sandbox";

describe("the sandbox's test cards", () => {
  it("checks numbers with Luhn", () => {
    expect(passesLuhn("4242424242424242")).toBe(true);
    expect(passesLuhn("4000000000000002")).toBe(true);
    expect(passesLuhn("4000002500003155")).toBe(true);
    expect(passesLuhn("4242424242424241")).toBe(false);
    expect(passesLuhn("79927398713")).toBe(true);
  });

  it("maps the documented numbers to their outcome, any other to declined", () => {
    expect(sandboxOutcome("4242 4242 4242 4242")).toBe("succeeded");
    expect(sandboxOutcome("4000-0000-0000-0002")).toBe("declined");
    expect(sandboxOutcome("4000002500003155")).toBe("requires_confirmation");
    expect(sandboxOutcome("5555555555554444")).toBe("declined");
  });

  it("keeps a card valid until the end of its expiry month (UTC)", () => {
    const at = (iso: string) => new Date(iso);
    expect(cardExpired("11/26", at("2026-11-30T23:59:59Z"))).toBe(false);
    expect(cardExpired("11/26", at("2026-12-01T00:00:00Z"))).toBe(true);
    expect(cardExpired("12/26", at("2026-12-31T12:00:00Z"))).toBe(false);
    expect(cardExpired("12/26", at("2027-01-01T00:00:00Z"))).toBe(true);
  });

  it("normalises what the form sends", () => {
    expect(
      CardSchema.parse({ cardNumber: "4242 4242-4242 4242", expiry: " 12 / 39 ", cvc: "123 ", name: " Ada " }),
    ).toEqual({
      cardNumber: "4242424242424242",
      expiry: "12/39",
      cvc: "123",
      name: "Ada",
    });
  });
});
