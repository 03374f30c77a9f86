import i18next, { type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { FALLBACK_LANGUAGE, LANGUAGE_COOKIE, matchLanguage, type LanguageCode } from "./languages";
import { I18N_OPTIONS } from "./options";

// Each language is its own chunk: a visitor downloads only the one they read.
const locales = import.meta.glob<{ default: Record<string, string> }>("../locales/*.json");

export async function loadTranslations(language: LanguageCode): Promise<Record<string, string>> {
  const load = locales[`../locales/${language}.json`] ?? locales[`../locales/${FALLBACK_LANGUAGE}.json`]!;
  return (await load()).default;
}

/** The browser's i18next, started in the language the server rendered (the html lang), so nothing flashes. */
export async function createClientI18n(htmlLang: string): Promise<I18n> {
  const language = matchLanguage(htmlLang) ?? FALLBACK_LANGUAGE;
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    ...I18N_OPTIONS,
    lng: language,
    resources: { [language]: { translation: await loadTranslations(language) } },
  });
  rememberLanguage(language);
  return instance;
}

/**
 * Caches the language as spec §9 says (localStorage i18nextLng) and mirrors it in the i18nextLng cookie, so the
 * next server render already speaks it.
 */
export function rememberLanguage(language: LanguageCode) {
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax; Secure`;
  try {
    localStorage.setItem(LANGUAGE_COOKIE, language);
  } catch {
    // Storage can be unavailable (private mode); the cookie still carries the choice.
  }
}
