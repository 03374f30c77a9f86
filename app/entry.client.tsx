import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { createClientI18n, rememberLanguage } from "~/i18n/client";
import { detectLanguage } from "~/i18n/detect";
import { provideMetaTranslations } from "~/i18n/meta";
import { LANGUAGE_COOKIE } from "@shared/i18n/languages";

/** Guards against a reload loop when the cookie cannot be stored. */
const RELOADED_FOR = "languageReloadedFor";

const readStorage = (storage: () => Storage) => {
  try {
    return storage().getItem(LANGUAGE_COOKIE);
  } catch {
    return null;
  }
};

/**
 * The server sees only ?lng, the cookie and Accept-Language. When the browser holds a choice the server could
 * not see (localStorage or sessionStorage, spec §9's order), store it in the cookie and load the page again in
 * that language, once.
 */
function serverMissedStoredLanguage(): boolean {
  const htmlLang = document.documentElement.lang;
  const cookie = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]+)`).exec(document.cookie)?.[1] ?? null;
  const detected = detectLanguage({
    query: new URLSearchParams(location.search).get("lng"),
    cookie,
    localStorage: readStorage(() => localStorage),
    sessionStorage: readStorage(() => sessionStorage),
    navigator: navigator.languages ?? [navigator.language],
    htmlLang,
  });
  if (!detected || detected === htmlLang) return false;
  try {
    if (sessionStorage.getItem(RELOADED_FOR) === detected) return false;
    sessionStorage.setItem(RELOADED_FOR, detected);
  } catch {
    return false;
  }
  rememberLanguage(detected);
  location.reload();
  return true;
}

/**
 * Resolves in a task of its own (scheduler.yield where the browser has it, which keeps the page's place in line),
 * so what comes after does not lengthen the task before it: on a slow phone, evaluating the modules (React DOM's
 * alone is about 60–100 ms at 4× CPU), starting i18next and React's first step of the hydration would make one or
 * two long tasks (127–154 ms at 4×) together; apart, each is a task of its own.
 */
const nextTask = (): Promise<void> =>
  (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler?.yield?.() ??
  new Promise((resolve) => setTimeout(resolve, 0));

async function hydrate() {
  await nextTask();
  if (serverMissedStoredLanguage()) return;
  const i18n = await createClientI18n(document.documentElement.lang);
  provideMetaTranslations((language) => i18n.getFixedT(language));
  await nextTask();
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18n}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
