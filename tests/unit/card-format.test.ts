import { describe, expect, it } from "vitest";
import { formatCardNumber, formatExpiry } from "../../app/components/wallet/card-format";

/** Types `keys` one at a time at the end, as a person on a keypad does, and answers the field's text and caret. */
function typed(format: (text: string, caret: number) => { value: string; caret: number }, keys: string) {
  let edit = { value: "", caret: 0 };
  for (const key of keys) edit = format(edit.value + key, edit.value.length + 1);
  return edit;
}

describe("the card number", () => {
  it("is grouped in fours as it is typed, the caret at its end", () => {
    expect(typed(formatCardNumber, "4242424242424242")).toEqual({ value: "4242 4242 4242 4242", caret: 19 });
    expect(typed(formatCardNumber, "42424")).toEqual({ value: "4242 4", caret: 6 });
    expect(typed(formatCardNumber, "4242")).toEqual({ value: "4242", caret: 4 });
  });

  it("keeps only digits, at most 19, whatever is pasted", () => {
    expect(formatCardNumber("4000-0025 0000 3155").value).toBe("4000 0025 0000 3155");
    expect(formatCardNumber("4242 4242 4242 4242 4242 42").value).toBe("4242 4242 4242 4242 424");
    expect(formatCardNumber("abc").value).toBe("");
  });

  it("keeps the caret after the same digit when one is typed or deleted in the middle", () => {
    // "4242 4242" with a 9 typed after the fifth digit: "4242 49242" → "4242 4924 2", caret after the 9.
    expect(formatCardNumber("4242 49242", 7)).toEqual({ value: "4242 4924 2", caret: 7 });
    // The first digit of the second group deleted: "4242 |242" stays right after the first group.
    expect(formatCardNumber("4242 242", 5)).toEqual({ value: "4242 242", caret: 4 });
  });
});

describe("the expiry", () => {
  it("accepts the digits alone: 1229 → 12/29, the slash put in after the month", () => {
    expect(typed(formatExpiry, "1229")).toEqual({ value: "12/29", caret: 5 });
    expect(typed(formatExpiry, "12")).toEqual({ value: "12/", caret: 3 });
    expect(formatExpiry("1229")).toEqual({ value: "12/29", caret: 5 });
  });

  it("keeps a typed slash, drops anything past MM/YY, and reads 4 as April", () => {
    expect(typed(formatExpiry, "12/29")).toEqual({ value: "12/29", caret: 5 });
    expect(formatExpiry("12/2999").value).toBe("12/29");
    expect(typed(formatExpiry, "4")).toEqual({ value: "04/", caret: 3 });
    expect(typed(formatExpiry, "1")).toEqual({ value: "1", caret: 1 });
  });

  it("lets the slash be deleted: 12/ → 12 while deleting, not put back", () => {
    expect(formatExpiry("12", 2, true)).toEqual({ value: "12", caret: 2 });
    expect(formatExpiry("1", 1, true)).toEqual({ value: "1", caret: 1 });
    expect(formatExpiry("12/9", 4, true)).toEqual({ value: "12/9", caret: 4 });
  });
});
