import { describe, expect, it } from "vitest";
import { toPrefixQuery } from "../../worker/domain/search/search-users";
import { detectLanguage, type LanguageSources } from "~/i18n/detect";

describe("toPrefixQuery", () => {
  it("makes every word a required prefix, in lower case", () => {
    expect(toPrefixQuery("Mia Riv")).toBe('"mia"* "riv"*');
    expect(toPrefixQuery("mia.rivers")).toBe('"mia"* "rivers"*');
    expect(toPrefixQuery("  Ölga  ")).toBe('"ölga"*');
  });

  it("lets no FTS5 syntax through", () => {
    expect(toPrefixQuery('a" OR "b')).toBe('"a"* "or"* "b"*');
    expect(toPrefixQuery("username:x*")).toBe('"username"* "x"*');
    expect(toPrefixQuery("NEAR(a b)")).toBe('"near"* "a"* "b"*');
    expect(toPrefixQuery('"*^-')).toBeNull();
    expect(toPrefixQuery("")).toBeNull();
  });

  it("keeps at most six words", () => {
    expect(toPrefixQuery("a b c d e f g h")?.split(" ")).toHaveLength(6);
  });
});

describe("detectLanguage (spec §9 order)", () => {
  const none: LanguageSources = {
    query: null,
    cookie: null,
    localStorage: null,
    sessionStorage: null,
    navigator: [],
    htmlLang: null,
  };

  it("takes the first source that names a supported language", () => {
    const all: LanguageSources = {
      query: "ja",
      cookie: "fr",
      localStorage: "de",
      sessionStorage: "es",
      navigator: ["it-IT"],
      htmlLang: "ko",
    };
    expect(detectLanguage(all)).toBe("ja");
    expect(detectLanguage({ ...all, query: null })).toBe("fr");
    expect(detectLanguage({ ...all, query: null, cookie: null })).toBe("de");
    expect(detectLanguage({ ...all, query: null, cookie: null, localStorage: null })).toBe("es");
    expect(detectLanguage({ ...all, query: null, cookie: null, localStorage: null, sessionStorage: null })).toBe("it");
    expect(detectLanguage({ ...none, htmlLang: "ko" })).toBe("ko");
  });

  it("skips unsupported values and maps Chinese variants", () => {
    expect(detectLanguage({ ...none, query: "xx", cookie: "zh-Hant-TW" })).toBe("zh-TW");
    expect(detectLanguage({ ...none, navigator: ["nl-NL", "zh"] })).toBe("zh-CN");
    expect(detectLanguage(none)).toBeNull();
  });
});
