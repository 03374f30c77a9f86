import { matchLanguage, type LanguageCode } from "@shared/i18n/languages";

/** Where the browser may hold a language, in the order of spec §9. */
export interface LanguageSources {
  query: string | null;
  cookie: string | null;
  localStorage: string | null;
  sessionStorage: string | null;
  navigator: readonly string[];
  htmlLang: string | null;
}

/** Spec §9: query lng, cookie i18nextLng, localStorage, sessionStorage, browser language, html lang. */
export function detectLanguage(sources: LanguageSources): LanguageCode | null {
  const candidates = [
    sources.query,
    sources.cookie,
    sources.localStorage,
    sources.sessionStorage,
    ...sources.navigator,
    sources.htmlLang,
  ];
  for (const candidate of candidates) {
    const match = matchLanguage(candidate);
    if (match) return match;
  }
  return null;
}
