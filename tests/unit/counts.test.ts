import { readFileSync } from "node:fs";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { mediaCountsText } from "../../app/lib/counts";
import { viewsAndLikesText } from "../../app/components/stories/story-counts";
import { I18N_OPTIONS } from "../../shared/i18n/options";
import { tooManyAttempts } from "../../worker/domain/shared/errors";

const locale = (language: string) =>
  JSON.parse(readFileSync(`app/locales/${language}.json`, "utf8")) as Record<string, string>;

/** As the browser's: English texts are their keys (en.json is never downloaded), the others from their files. */
async function translator(language: string) {
  const i18n = i18next.createInstance();
  await i18n.init({
    ...I18N_OPTIONS,
    lng: language,
    resources: { en: { translation: {} }, [language]: { translation: language === "en" ? {} : locale(language) } },
  });
  return i18n.t;
}

describe("counts written for one and for more (app/lib/counts.ts, app/components/stories/story-counts.ts)", () => {
  it("a locked post's or message's media: one photo, photos, videos, the kinds it has none of left out", async () => {
    const t = await translator("en");
    expect(mediaCountsText(t, 1, 0)).toBe("1 photo");
    expect(mediaCountsText(t, 3, 1)).toBe("3 photos · 1 video");
    expect(mediaCountsText(t, 0, 2)).toBe("2 videos");
    expect(mediaCountsText(t, 1, 1)).toBe("1 photo · 1 video");
    const de = await translator("de");
    expect(mediaCountsText(de, 1, 2)).toBe("1 Foto · 2 Videos");
    const ru = await translator("ru");
    expect(mediaCountsText(ru, 5, 0)).toBe("Фото: 5");
  });

  it("a story's views and likes", async () => {
    const t = await translator("en");
    expect(viewsAndLikesText(t, 1, 1)).toBe("1 view · 1 like");
    expect(viewsAndLikesText(t, 0, 0)).toBe("0 views · 0 likes");
    expect(viewsAndLikesText(t, 12, 3)).toBe("12 views · 3 likes");
    expect(viewsAndLikesText(await translator("fr"), 1, 2)).toBe("1 vue · 2 j’aime");
  });

  it("a rate limit's wait: one minute, or minutes", async () => {
    const t = await translator("en");
    const text = (seconds: number) => {
      const error = tooManyAttempts(seconds);
      return t(error.message, error.vars);
    };
    expect(text(30)).toBe("Too many attempts. Please try again in 1 minute.");
    expect(text(60)).toBe("Too many attempts. Please try again in 1 minute.");
    expect(text(61)).toBe("Too many attempts. Please try again in 2 minutes.");
    expect(text(900)).toBe("Too many attempts. Please try again in 15 minutes.");
  });
});
