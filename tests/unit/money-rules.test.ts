import { describe, expect, it } from "vitest";
import en from "../../app/locales/en.json";
import * as rules from "../../worker/domain/money/rules";
import { IdempotencyKeySchema } from "../../shared/contracts/money-bodies";
import { MAX_TIP_NOTE_LENGTH } from "../../shared/contracts/money-constants";
import { addPeriod } from "../../worker/domain/subscriptions/periods";
import { validationError } from "../../worker/domain/shared/validation";
import { withdrawalCentsFromForm } from "../../worker/domain/money/withdrawal-amount";

const { addBusinessDays, clientKey, releaseDateOf, splitEarning, systemKey } = rules;

describe("the money limits (spec §5, §9; docs/decisions/money-rules.md)", () => {
  it("are the documented amounts, in cents", () => {
    expect(rules.CURRENCY).toBe("USD");
    expect([rules.MIN_TOP_UP_CENTS, rules.MAX_TOP_UP_CENTS]).toEqual([500, 100_000]);
    expect(rules.TOP_UP_PRESETS_CENTS).toEqual([1000, 2500, 5000, 10_000]);
    expect([rules.MIN_TIP_CENTS, rules.MAX_TIP_CENTS, MAX_TIP_NOTE_LENGTH]).toEqual([100, 20_000, 500]);
    expect(rules.MIN_WITHDRAWAL_CENTS).toBe(5000);
    expect(rules.HOLD_BUSINESS_DAYS).toBe(7);
  });

  it("every preset top-up is within the top-up range", () => {
    for (const cents of rules.TOP_UP_PRESETS_CENTS) expect(cents >= 500 && cents <= 100_000, String(cents)).toBe(true);
  });

  it("its sentences are translation keys of the English locale", () => {
    const sentences = [
      rules.IDEMPOTENCY_KEY_REUSED,
      rules.ALREADY_PURCHASED,
      rules.NOT_FOR_SALE,
      rules.TIP_AMOUNT_RANGE,
      rules.TOP_UP_AMOUNT_RANGE,
    ];
    for (const sentence of sentences) expect(Object.keys(en), sentence).toContain(sentence);
    expect(rules.TIP_AMOUNT_RANGE).toBe("A tip is between {{min, money}} and {{max, money}}.");
    expect(rules.TOP_UP_AMOUNT_RANGE).toBe("A top-up is between {{min, money}} and {{max, money}}.");
  });
});

describe("splitEarning: the platform's fee, rounded half up to the cent, and the creator's net", () => {
  it.each([
    // gross, fee %, fee (worked by hand), net
    [1000, 20, 200, 800],
    [999, 20, 200, 799], // 199.8
    [1001, 20, 200, 801], // 200.2
    [1003, 20, 201, 802], // 200.6
    [1, 20, 0, 1], // 0.2
    [3, 20, 1, 2], // 0.6
    [5, 10, 1, 4], // 0.5 rounds up
    [15, 10, 2, 13], // 1.5 rounds up
    [25, 10, 3, 22], // 2.5 rounds up (not to even)
    [4, 12.5, 1, 3], // 0.5 rounds up
    [3, 12.5, 0, 3], // 0.375
    [200, 7.25, 15, 185], // 14.5 rounds up
    [199, 7.25, 14, 185], // 14.4275
    [1, 49, 0, 1],
    [1, 50, 1, 0],
    [1234, 0, 0, 1234],
    [1234, 100, 1234, 0],
    [100_000, 0.3, 300, 99_700],
  ])("%i cents at %f%% → fee %i, net %i", (gross, percent, fee, net) => {
    expect(splitEarning(gross, percent)).toEqual({ feeCents: fee, netCents: net });
  });

  it("a percent that floating point cannot write exactly still gives the exact fee", () => {
    // 0.1 + 0.2 is 0.30000000000000004: 0.3% of $1,000.05 is 300.015 cents → 300.
    expect(splitEarning(100_005, 0.1 + 0.2)).toEqual({ feeCents: 300, netCents: 99_705 });
    // 1.15 * 100 is 114.99999999999999: 1.15% of $1.00 is 1.15 cents → 1; of $10.00 is 11.5 → 12.
    expect(splitEarning(100, 1.15).feeCents).toBe(1);
    expect(splitEarning(1000, 1.15).feeCents).toBe(12);
  });
});

describe("addBusinessDays: Monday to Friday in UTC, at the same time of day", () => {
  it.each([
    // from, business days, to (counted on a calendar by hand)
    ["2026-11-23T10:00:00.000Z", 7, "2026-12-02T10:00:00.000Z"], // Mon → Wed after next
    ["2026-11-24T10:00:00.000Z", 7, "2026-12-03T10:00:00.000Z"], // Tue → Thu
    ["2026-11-25T10:00:00.000Z", 7, "2026-12-04T10:00:00.000Z"], // Wed → Fri
    ["2026-11-26T23:59:59.999Z", 7, "2026-12-07T23:59:59.999Z"], // Thu → Mon, over one weekend
    ["2026-11-27T00:00:00.000Z", 7, "2026-12-08T00:00:00.000Z"], // Fri → Tue
    ["2026-11-28T15:30:00.000Z", 7, "2026-12-09T15:30:00.000Z"], // Sat: counts from Mon 30th
    ["2026-11-29T08:00:00.000Z", 7, "2026-12-09T08:00:00.000Z"], // Sun: counts from Mon 30th
    ["2026-12-24T12:00:00.000Z", 7, "2027-01-04T12:00:00.000Z"], // over the year end; holidays are not skipped
    ["2026-11-23T10:00:00.000Z", 0, "2026-11-23T10:00:00.000Z"],
    ["2026-11-28T10:00:00.000Z", 0, "2026-11-30T10:00:00.000Z"], // a weekend moves to Monday
    ["2026-11-29T10:00:00.000Z", 0, "2026-11-30T10:00:00.000Z"],
    ["2026-11-26T10:00:00.000Z", 1, "2026-11-27T10:00:00.000Z"], // Thu → Fri
    ["2026-11-27T10:00:00.000Z", 1, "2026-11-30T10:00:00.000Z"], // Fri → Mon
    ["2026-11-25T10:00:00.000Z", 5, "2026-12-02T10:00:00.000Z"], // a working week is a calendar week
    ["2026-11-27T23:30:00-05:00", 1, "2026-12-01T04:30:00.000Z"], // Friday evening in New York is Saturday in UTC
  ])("%s + %i business days = %s", (from, days, to) => {
    expect(addBusinessDays(from, days)).toBe(to);
  });

  it("earnings are released 7 business days after the payment, not at once", () => {
    expect(releaseDateOf("2026-11-23T10:00:00.000Z")).toBe("2026-12-02T10:00:00.000Z");
    expect(releaseDateOf("2026-11-28T15:30:00.000Z")).toBe("2026-12-09T15:30:00.000Z");
  });
});

describe("addPeriod: when a subscription renews (UTC)", () => {
  it.each([
    ["2026-11-23T10:00:00.000Z", "week", "2026-11-30T10:00:00.000Z"],
    ["2026-12-29T23:59:59.999Z", "week", "2027-01-05T23:59:59.999Z"],
    ["2026-11-30T10:00:00.000Z", "month", "2026-12-30T10:00:00.000Z"],
    ["2026-12-15T12:34:56.789Z", "month", "2027-01-15T12:34:56.789Z"], // into the next year
    ["2026-01-31T08:00:00.000Z", "month", "2026-02-28T08:00:00.000Z"], // clamped to the shorter month
    ["2028-01-31T08:00:00.000Z", "month", "2028-02-29T08:00:00.000Z"], // a leap year's February
    ["2026-03-31T08:00:00.000Z", "month", "2026-04-30T08:00:00.000Z"],
    ["2026-02-28T08:00:00.000Z", "month", "2026-03-28T08:00:00.000Z"], // the 28th stays the 28th
    ["2026-10-31T00:00:00.000Z", "month", "2026-11-30T00:00:00.000Z"],
    ["2026-06-15T09:00:00.000Z", "year", "2027-06-15T09:00:00.000Z"],
    ["2026-12-31T09:00:00.000Z", "year", "2027-12-31T09:00:00.000Z"],
    ["2028-02-29T09:00:00.000Z", "year", "2029-02-28T09:00:00.000Z"], // no Feb 29th next year
    ["2027-02-28T09:00:00.000Z", "year", "2028-02-28T09:00:00.000Z"],
  ] as const)("%s + one %s = %s", (from, period, to) => {
    expect(addPeriod(from, period)).toBe(to);
  });

  it("a monthly renewal from the 31st comes back to the 31st once February is past", () => {
    // Each renewal starts from the previous end: Jan 31 → Feb 28 → Mar 28 (the clamp is not undone).
    expect(addPeriod(addPeriod("2026-01-31T08:00:00.000Z", "month"), "month")).toBe("2026-03-28T08:00:00.000Z");
  });
});

describe("idempotency keys", () => {
  it.each(["abcdEFGH", "a-b_c123", "0".repeat(100), "123e4567-e89b-12d3-a456-426614174000"])("accepts %j", (key) => {
    expect(IdempotencyKeySchema.parse(key)).toBe(key);
  });

  it.each(["", "abcdefg", "0".repeat(101), "bad key!", "abcdefgh\n", "ключключключ"])(
    "refuses %j as an invalid value",
    (key) => {
      const result = IdempotencyKeySchema.safeParse(key);
      expect(result.success).toBe(false);
      expect(validationError(result.error!).message).toBe("Invalid value");
    },
  );

  it("refuses a key that is not a string as an invalid value", () => {
    expect(validationError(IdempotencyKeySchema.safeParse(12345678).error!).message).toBe("Invalid value");
  });

  it("a client's key and the cron's can never be equal", () => {
    expect(clientKey("abc")).toBe("u:abc");
    expect(systemKey("abc")).toBe("s:abc");
  });
});

describe("withdrawalCentsFromForm: what the withdrawal form's amount says", () => {
  const refusal = (typed: string) => {
    try {
      withdrawalCentsFromForm(typed);
      return null;
    } catch (error) {
      return (error as { fieldErrors?: Record<string, string[]> }).fieldErrors?.amount?.[0] ?? "no field error";
    }
  };

  it("reads an amount in dollars as cents", () => {
    expect(withdrawalCentsFromForm("60")).toBe(6_000);
    expect(withdrawalCentsFromForm("$9,999,999.99")).toBe(999_999_999);
  });

  it("says the maximum for an amount over it, and how to write one for anything else", () => {
    for (const typed of ["100000000", "10,000,000", "$12,345,678.50", "99999999999"])
      expect(refusal(typed)).toBe("A withdrawal can be at most {{max, money}}.");
    for (const typed of ["abc", "", "1,2,3", "12.505", "-50", "1e9", "00000000"])
      expect(refusal(typed)).toBe("Enter an amount in dollars, like 12.50.");
  });
});
