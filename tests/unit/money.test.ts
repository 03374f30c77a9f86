import { describe, expect, it } from "vitest";
import { formatCents } from "@shared/money";
import { parseDollars, typedDollars } from "@shared/typed-dollars";
import { translatorFor } from "../../worker/domain/i18n";
import { fieldError } from "../../worker/domain/shared/errors";
import { message } from "@shared/messages";
import { translateError } from "../../worker/http/errors";
import { TIP_AMOUNT_RANGE } from "../../worker/domain/money/rules";
import { tipRangeVars } from "../../worker/domain/money/send-tip";
import { PRICE_OUT_OF_RANGE } from "../../shared/contracts/subscription-bodies";

describe("parseDollars: the one rule of every amount typed in dollars", () => {
  it.each([
    ["0", 0],
    ["7", 700],
    ["60", 6000],
    ["0.07", 7],
    ["12.5", 1250],
    ["12.50", 1250],
    ["12.05", 1205],
    ["12,50", 1250],
    ["12,5", 1250],
    ["12,05", 1205],
    ["1,00", 100],
    ["1000", 100_000],
    ["1,000", 100_000],
    ["12,345", 1_234_500],
    ["1,000.05", 100_005],
    ["1,000.5", 100_050],
    ["1,234,567.89", 123_456_789],
    ["9,999,999.99", 999_999_999],
    ["9999999.99", 999_999_999],
    ["0000007", 700],
    ["$5", 500],
    ["$ 5", 500],
    ["$1,000.05", 100_005],
    ["  12.50  ", 1250],
    ["\t$3,50\n", 350],
  ])("reads %j as %i cents", (typed, cents) => {
    expect(parseDollars(typed)).toBe(cents);
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["only the sign", "$"],
    ["words", "abc"],
    ["digits then words", "12abc"],
    ["words then digits", "abc12"],
    ["three decimals (refused, not rounded)", "19.999"],
    ["three decimals after a grouped amount", "1,000.001"],
    ["negative", "-5"],
    ["negative after the sign", "$-5"],
    ["a plus sign", "+5"],
    ["an exponent", "1e3"],
    ["Infinity", "Infinity"],
    ["NaN", "NaN"],
    ["hexadecimal", "0x10"],
    ["a trailing point", "12."],
    ["a trailing comma", "12,"],
    ["no whole dollars", ".5"],
    ["two points", "12..5"],
    ["two decimal separators", "1.2.3"],
    ["commas that group nothing", "1,2,3"],
    ["a group of two digits", "1,00,000"],
    ["a group of four digits", "1,0000"],
    ["a first group of four digits", "1000,000"],
    ["a grouped amount starting with zero", "0,500"],
    ["a decimal comma after grouped thousands", "1,000,50"],
    ["a point grouping thousands", "1.000,50"],
    ["a space inside", "1 000"],
    ["the sign after the amount", "5$"],
    ["two signs", "$$5"],
    ["eight whole digits", "10000000"],
    ["eight whole digits, grouped", "10,000,000"],
    ["four groups", "1,000,000,000"],
    ["a second group too long", "1,000,0000"],
    ["Arabic-Indic digits", "١٢"],
  ])("refuses %s (%j)", (_, typed) => {
    expect(parseDollars(typed)).toBeNull();
  });
});

describe("money formatting", () => {
  it("writes cents in the reader's language", () => {
    expect(formatCents(1250, "en")).toBe("$12.50");
    expect(formatCents(100_000, "en")).toBe("$1,000.00");
    expect(formatCents(7, "en")).toBe("$0.07");
    expect(formatCents(1250, "de").replace(/\s/g, " ")).toBe("12,50 $");
  });

  it("writes the amounts of a translated error as the reader's language writes them: the error's own and the rule's", () => {
    const plain = (text: string) => text.replace(/\s/g, " ");
    const tip = fieldError("amountCents", TIP_AMOUNT_RANGE, tipRangeVars);
    expect(translateError(translatorFor("en"), tip)).toEqual({
      message: "A tip is between $1.00 and $200.00.",
      errors: { amountCents: ["A tip is between $1.00 and $200.00."] },
    });
    expect(plain(translateError(translatorFor("de"), tip).message)).toBe(
      "Ein Trinkgeld muss zwischen 1,00 $ und 200,00 $ liegen.",
    );
    // A zod rule's sentence carries no variables of its own: the ones it was marked with fill it in.
    const plan = fieldError("price_week", PRICE_OUT_OF_RANGE);
    expect(translateError(translatorFor("en"), plan).message).toBe(
      "A paid plan costs between $4.99 and $1,000.00; 0 makes it free.",
    );
    expect(plain(translateError(translatorFor("de"), plan).errors.price_week![0]!)).toBe(
      "Ein kostenpflichtiger Plan kostet zwischen 4,99 $ und 1.000,00 $; mit 0 ist er kostenlos.",
    );
    // The error's variables win over the sentence's.
    const sentence = message("A test sentence costs {{max, money}}.", { max: 100 });
    expect(translateError(translatorFor("en"), fieldError("x", sentence, { max: 250 })).message).toBe(
      "A test sentence costs $2.50.",
    );
  });

  it("writes a field's amount the way parseDollars reads it back", () => {
    expect(typedDollars(1250)).toBe("12.50");
    expect(typedDollars(7)).toBe("0.07");
    expect(typedDollars(100_000)).toBe("1000.00");
    expect(typedDollars(999)).toBe("9.99");
    expect(typedDollars(0)).toBe("0.00");
    for (const cents of [0, 7, 99, 100, 1205, 100_000, 999_999_999])
      expect(parseDollars(typedDollars(cents))).toBe(cents);
  });
});
