import i18next, { type BackendModule, type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { FALLBACK_LANGUAGE, LANGUAGE_COOKIE, matchLanguage, type LanguageCode } from "@shared/i18n/languages";
import { I18N_OPTIONS } from "@shared/i18n/options";
import { cachingPlainTexts } from "@shared/i18n/plain-texts";

// Each language is its own chunk: a visitor downloads only the one they read. English is none: its keys are
// its texts (scripts/i18n-keys.mjs keeps en.json so), and i18next shows and interpolates a missing key as is.
const locales = import.meta.glob<{ default: Record<string, string> }>(["../locales/*.json", "!../locales/en.json"]);

async function loadTranslations(language: LanguageCode): Promise<Record<string, string>> {
  const load = locales[`../locales/${language}.json`];
  return load ? (await load()).default : {};
}

/** An i18next backend that imports a language's chunk the first time it is needed (start or switch). */
const lazyLocales: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    loadTranslations(matchLanguage(language) ?? FALLBACK_LANGUAGE).then(
      (translations) => callback(null, translations),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * Caches the language as spec §9 says (localStorage i18nextLng) and mirrors it in the i18nextLng cookie, so the
 * next server render already speaks it.
 */
export function rememberLanguage(language: string) {
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax; Secure`;
  try {
    localStorage.setItem(LANGUAGE_COOKIE, language);
  } catch {
    // Storage can be unavailable (private mode); the cookie still carries the choice.
  }
}

/**
 * The browser's i18next, started in the language the server rendered (the html lang), so nothing flashes.
 * Switching later (remix-i18next's useChangeLanguage in app/root.tsx) loads the new language first.
 */
export async function createClientI18n(htmlLang: string): Promise<I18n> {
  const language = matchLanguage(htmlLang) ?? FALLBACK_LANGUAGE;
  // Plain texts are looked up once per language: a feed's cards ask for the same labels hundreds of times while
  // the page hydrates (shared/i18n/plain-texts.ts).
  const instance = cachingPlainTexts(i18next.createInstance(), 2_000);
  instance.on("languageChanged", rememberLanguage);
  await instance
    .use(lazyLocales)
    .use(initReactI18next)
    // Keys are the English text, so a missing key already reads as English: no second chunk for a fallback.
    .init({ ...I18N_OPTIONS, lng: language, fallbackLng: false, ns: ["translation"] });
  return instance;
}
