// The script of the offline page (public/offline.html), built by scripts/build-sw.mjs into build/client/offline.js
// and precached with it. The page is static and written in English; this puts its texts in the person's language,
// found as the app finds it (spec §9: ?lng, the i18nextLng cookie, localStorage, sessionStorage, the browser's
// languages), with the direction of that language. The texts are the app's own translations of the same keys
// (app/locales/*.json) named in offline-page-keys.json, put in by the build.
import { detectLanguage } from "~/i18n/detect";
import { LANGUAGE_COOKIE, RTL_LANGUAGES, type LanguageCode } from "@shared/i18n/languages";
import type KEYS from "~/sw/offline-page-keys.json";

/** Each language's texts, by the names of offline-page-keys.json (the page's data-text), put in by the build. */
declare const __OFFLINE_PAGE_TEXTS__: Partial<Record<LanguageCode, Record<keyof typeof KEYS, string>>>;

const read = (storage: () => Storage) => {
  try {
    return storage().getItem(LANGUAGE_COOKIE);
  } catch {
    return null;
  }
};

const language = detectLanguage({
  query: new URLSearchParams(location.search).get("lng"),
  cookie: new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]+)`).exec(document.cookie)?.[1] ?? null,
  localStorage: read(() => localStorage),
  sessionStorage: read(() => sessionStorage),
  navigator: navigator.languages ?? [navigator.language],
  htmlLang: null,
});
const texts = language ? __OFFLINE_PAGE_TEXTS__[language] : undefined;
if (language && texts) {
  document.documentElement.lang = language;
  document.documentElement.dir = RTL_LANGUAGES.has(language) ? "rtl" : "ltr";
  if (texts.heading) document.title = `${texts.heading} · Fanclub`;
  // The script runs in <head>, before the body is read: the page stays hidden until its texts are put in, so
  // nothing is shown in English first.
  document.documentElement.style.visibility = "hidden";
  document.addEventListener("DOMContentLoaded", () => {
    try {
      for (const element of document.querySelectorAll<HTMLElement>("[data-text]")) {
        const text = texts[element.dataset.text as keyof typeof KEYS];
        if (text) element.textContent = text;
      }
    } finally {
      document.documentElement.style.visibility = "";
    }
  });
}
