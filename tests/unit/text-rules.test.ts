import { describe, expect, it } from "vitest";
import { brokenStringPath } from "../../worker/http/well-formed-text";
import { multilineText, singleLineText, visibleNameText } from "@shared/contracts/text";

describe("brokenStringPath: where a JSON value holds half a character", () => {
  it("finds a lone surrogate in a value, a nested value, an array item or a key", () => {
    expect(brokenStringPath("a\ud800")).toEqual([]);
    expect(brokenStringPath({ text: "ok", media: [{ caption: "\udfff" }] })).toEqual(["media", "0", "caption"]);
    expect(brokenStringPath({ ["\ud83d"]: 1 })).toEqual(["\ud83d"]);
  });

  it("lets whole characters, numbers and nulls through", () => {
    expect(brokenStringPath({ text: "😀 Zoë", n: 1, none: null, list: [true, "ok"] })).toBeNull();
    // Nesting as deep as JSON.parse takes: walked without a call per level (a recursion overflowed: a 500).
    const deep = JSON.parse(`${"[".repeat(50_000)}"\\ud800"${"]".repeat(50_000)}`) as Parameters<
      typeof brokenStringPath
    >[0];
    expect(brokenStringPath(deep)).toHaveLength(50_000);
    expect(
      brokenStringPath(
        JSON.parse(`${"[".repeat(50_000)}${"]".repeat(50_000)}`) as Parameters<typeof brokenStringPath>[0],
      ),
    ).toBeNull();
  });
});

describe("text schemas", () => {
  it("refuse a lone surrogate before anything else, in one line and many", () => {
    for (const schema of [singleLineText(), multilineText(), visibleNameText()]) {
      expect(schema.safeParse("x\ud800").error?.issues[0]?.message).toBe(
        "This text contains a character that is not valid Unicode. Please type it again.",
      );
    }
  });

  it.each(["\u202E", "\u2066", "\u200E", "\u200B", "\uFEFF", "\u2060", "\u00AD", "\u3164", "\u115F", "\u034F"])(
    "a name refuses U+%s",
    (character) => {
      expect(visibleNameText().safeParse(`Ann${character}Lee`).success).toBe(false);
    },
  );

  it.each([
    "Zoë",
    "👨‍👩‍👧",
    "❤️",
    "می‌خواهم",
    "नमस्ते",
    "李小龙",
    "O'Brien-Smith",
    "Ailsa 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
    "ᠠ᠋ᠢ",
  ])("a name keeps %s", (name) => {
    expect(visibleNameText().safeParse(name).success).toBe(true);
  });

  it("a name refuses a joiner with nothing visible on one side", () => {
    // Tag characters outside a flag hide text.
    expect(visibleNameText().safeParse("Ann\u{E0067}\u{E0062}Lee").success).toBe(false);
    for (const name of ["\u200DAnn", "Ann\u200C", "Ann \u200D Lee"])
      expect(visibleNameText().safeParse(name).success, JSON.stringify(name)).toBe(false);
  });
});
