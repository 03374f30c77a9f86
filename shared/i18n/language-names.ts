import type { LanguageCode } from "./languages";

/** Each interface language's own name, for the picker: a file of its own, so a page without the picker carries none. */
export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: "English",
  ar: "العربية",
  de: "Deutsch",
  es: "Español",
  fr: "Français",
  hi: "हिन्दी",
  it: "Italiano",
  ja: "日本語",
  ko: "한국어",
  pt: "Português",
  ro: "Română",
  ru: "Русский",
  uk: "Українська",
  "zh-CN": "简体中文",
  "zh-TW": "繁體中文",
};
