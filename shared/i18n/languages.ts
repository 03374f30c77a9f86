/** The fifteen interface languages of spec §1, each with its own name for the picker. */
export const LANGUAGES = [
  { langCode: "en", langName: "English" },
  { langCode: "ar", langName: "العربية" },
  { langCode: "de", langName: "Deutsch" },
  { langCode: "es", langName: "Español" },
  { langCode: "fr", langName: "Français" },
  { langCode: "hi", langName: "हिन्दी" },
  { langCode: "it", langName: "Italiano" },
  { langCode: "ja", langName: "日本語" },
  { langCode: "ko", langName: "한국어" },
  { langCode: "pt", langName: "Português" },
  { langCode: "ro", langName: "Română" },
  { langCode: "ru", langName: "Русский" },
  { langCode: "uk", langName: "Українська" },
  { langCode: "zh-CN", langName: "简体中文" },
  { langCode: "zh-TW", langName: "繁體中文" },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]["langCode"];
export const FALLBACK_LANGUAGE: LanguageCode = "en";
export const SUPPORTED_LANGUAGES: readonly LanguageCode[] = LANGUAGES.map((l) => l.langCode);
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
