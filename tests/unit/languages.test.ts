import { describe, expect, it } from "vitest";
import { languageFromAcceptHeader, matchLanguage, SUPPORTED_LANGUAGES } from "@shared/i18n/languages";
import { LANGUAGE_NAMES } from "@shared/i18n/language-names";

describe("languages", () => {
  it("offers the fifteen languages of spec §1, each with its own name", () => {
    expect([...SUPPORTED_LANGUAGES].sort()).toEqual(
      ["ar", "de", "en", "es", "fr", "hi", "it", "ja", "ko", "pt", "ro", "ru", "uk", "zh-CN", "zh-TW"].sort(),
    );
    expect(Object.keys(LANGUAGE_NAMES).sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
    expect(new Set(Object.values(LANGUAGE_NAMES)).size).toBe(15);
  });

  it.each([
    ["de-AT", "de"],
    ["PT-br", "pt"],
    ["zh", "zh-CN"],
    ["zh-Hans-CN", "zh-CN"],
    ["zh-Hant", "zh-TW"],
    ["zh-HK", "zh-TW"],
    ["zh-tw", "zh-TW"],
    ["xx", null],
    ["", null],
  ])("matches %j to %j", (tag, code) => {
    expect(matchLanguage(tag)).toBe(code);
  });

  it("picks the best supported language of an Accept-Language header", () => {
    expect(languageFromAcceptHeader("xx;q=1, fr-CA;q=0.4, ja;q=0.8")).toBe("ja");
    expect(languageFromAcceptHeader("xx, yy")).toBeNull();
    expect(languageFromAcceptHeader(null)).toBeNull();
  });
});
