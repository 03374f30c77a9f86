import { describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "@shared/i18n/languages";
import { formatCents } from "@shared/money";
import { formatWithPattern, learnMoneyPattern, MONEY_SAMPLE_CENTS, moneyPattern } from "@shared/money-pattern";

const samplesOf = (language: string) => MONEY_SAMPLE_CENTS.map((cents) => formatCents(cents, language));

const AMOUNTS = [
  0, 1, 9, 10, 99, 100, 105, 999, 1_000, 12_345, 99_999, 100_000, 123_456, 999_999, 1_000_000, 1_234_567, 12_345_678,
  100_000_000, 999_999_999, 123_456_789_012, 900_719_925_474_099,
];

describe("a language's way of writing dollars, learnt from two amounts", () => {
  // The app's languages, and others whose digits, grouping or symbol place differ (Bengali and Persian digits,
  // India's and Switzerland's groups, Polish and Spanish minimum grouping).
  const languages = [...SUPPORTED_LANGUAGES, "bn", "fa", "en-IN", "de-CH", "pl", "sv", "ar-EG", "th"];

  it.each(languages)("writes every amount as Intl does in %s", (language) => {
    const pattern = moneyPattern(samplesOf(language));
    expect(pattern).not.toBeNull();
    for (const cents of AMOUNTS)
      expect(formatWithPattern(pattern!, cents), `${cents}`).toBe(formatCents(cents, language));
    // Amounts of every length, the same ones each run (a fixed linear congruential sequence).
    let seed = 20261127;
    for (let i = 0; i < 200; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const cents = Math.floor((seed / 2 ** 31) ** 3 * 1e12);
      expect(formatWithPattern(pattern!, cents), `${cents}`).toBe(formatCents(cents, language));
    }
  });

  it("writes nothing for a negative or fractional amount, and learns nothing from samples it cannot read", () => {
    const pattern = moneyPattern(samplesOf("en"))!;
    expect(formatWithPattern(pattern, -100)).toBeNull();
    expect(formatWithPattern(pattern, 1.5)).toBeNull();
    expect(formatWithPattern(pattern, Number.MAX_SAFE_INTEGER + 2)).toBeNull();
    for (const samples of [
      null,
      undefined,
      [],
      ["$1,234,567,890.12"],
      ["$1.00", "$1,234.56"],
      ["$1,234,567,890.12", "€1,234.56"],
      ["$1,234,567,890.12", "$1 234.56"],
      ["no digits", "none"],
      ["$1,234,567,890.12", "$1,234.56", "x"],
    ]) {
      expect(moneyPattern(samples)).toBeNull();
    }
  });

  it("once learnt, formatCents writes with the pattern (no Intl), and with Intl what the pattern cannot write", () => {
    // A made-up language whose pattern tells itself apart from Intl's English.
    const pattern = { ...moneyPattern(samplesOf("en"))!, prefix: "USD ", group: "'" };
    learnMoneyPattern("en-x-test", pattern);
    learnMoneyPattern("en-x-test", moneyPattern(samplesOf("de"))); // the first one stays
    expect(formatCents(123_456, "en-x-test")).toBe("USD 1'234.56");
    expect(formatCents(-500, "en-x-test")).toBe(
      new Intl.NumberFormat("en-x-test", { style: "currency", currency: "USD" }).format(-5),
    );
    learnMoneyPattern("en-x-none", null);
    expect(formatCents(123_456, "en")).toBe("$1,234.56");
  });
});
