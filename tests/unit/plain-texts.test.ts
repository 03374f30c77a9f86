import i18next from "i18next";
import { describe, expect, it, vi } from "vitest";
import { cachingPlainTexts } from "../../shared/i18n/plain-texts";

/** An i18next like the browser's (keys are the English texts), with German loaded and a spy on its resolution. */
async function instance() {
  const i18n = cachingPlainTexts(i18next.createInstance(), 100);
  await i18n.init({
    lng: "en",
    fallbackLng: false,
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    resources: {
      en: { translation: {} },
      de: { translation: { Like: "Gefällt mir", "{{count}} likes": "{{count}} Likes" } },
    },
  });
  return { i18n, resolved: vi.spyOn(i18n, "t") };
}

describe("plain texts looked up once (shared/i18n/plain-texts.ts)", () => {
  it("answers a plain text from its map after the first lookup, the same answer as i18next's", async () => {
    const { i18n, resolved } = await instance();
    const t = i18n.getFixedT(null, "translation");
    expect(i18n.getFixedT(null, "translation")).toBe(t);
    for (let i = 0; i < 50; i++) expect(t("Like")).toBe("Like");
    expect(resolved).toHaveBeenCalledTimes(1);
    // Anything with options (interpolation, another language) goes to i18next every time.
    expect(t("{{count}} likes", { count: 3 })).toBe("3 likes");
    expect(t("{{count}} likes", { count: 4 })).toBe("4 likes");
    expect(resolved).toHaveBeenCalledTimes(3);
  });

  it("gives a new function in a new language, with that language's texts", async () => {
    const { i18n } = await instance();
    const english = i18n.getFixedT(null, "translation");
    expect(english("Like")).toBe("Like");
    await i18n.changeLanguage("de");
    const german = i18n.getFixedT(null, "translation");
    expect(german).not.toBe(english);
    expect(german("Like")).toBe("Gefällt mir");
    expect(german("{{count}} likes", { count: 2 })).toBe("2 Likes");
    // A fixed language other than the current one is i18next's own function, uncached.
    expect(i18n.getFixedT("en", "translation")("Like")).toBe("Like");
  });
});
