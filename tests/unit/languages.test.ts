import { describe, expect, it } from "vitest";
import { LANGUAGES, languageFromAcceptHeader, matchLanguage } from "@shared/i18n/languages";

describe("languages", () => {
  it("offers the fifteen languages of spec §1, each with its own name", () => {
    expect(LANGUAGES.map((l) => l.langCode).sort()).toEqual(
      ["ar", "de", "en", "es", "fr", "hi", "it", "ja", "ko", "pt", "ro", "ru", "uk", "zh-CN", "zh-TW"].sort(),
    );
    expect(new Set(LANGUAGES.map((l) => l.langName)).size).toBe(15);
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
