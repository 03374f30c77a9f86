/** The fifteen interface languages of spec §1. */
export const SUPPORTED_LANGUAGES = [
  "en",
  "ar",
  "de",
  "es",
  "fr",
  "hi",
  "it",
  "ja",
  "ko",
  "pt",
  "ro",
  "ru",
  "uk",
  "zh-CN",
  "zh-TW",
] as const;

export type LanguageCode = (typeof SUPPORTED_LANGUAGES)[number];

export const FALLBACK_LANGUAGE: LanguageCode = "en";
export const RTL_LANGUAGES: ReadonlySet<string> = new Set(["ar"]);
export const LANGUAGE_COOKIE = "i18nextLng";

/** Maps a tag such as "pt-BR", "zh-Hant-TW" or "DE" onto a supported language, or null. */
export function matchLanguage(tag: string | null | undefined): LanguageCode | null {
  if (!tag) return null;
  const lower = tag.trim().toLowerCase();
  const exact = SUPPORTED_LANGUAGES.find((code) => code.toLowerCase() === lower);
  if (exact) return exact;
  if (lower.startsWith("zh")) {
    return /hant|tw|hk|mo/.test(lower) ? "zh-TW" : "zh-CN";
  }
  const base = lower.split(/[-_]/)[0];
  return SUPPORTED_LANGUAGES.find((code) => code === base) ?? null;
}

/** Picks the first supported language of an Accept-Language header, by quality. */
export function languageFromAcceptHeader(header: string | null): LanguageCode | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .slice(0, 20)
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag: tag ?? "", quality: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.quality - a.quality);
  for (const { tag } of ranked) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return null;
}
