/**
 * What this app uses of react-i18next (`useTranslation()` without arguments, `I18nextProvider`,
 * `initReactI18next`), for its builds: vite.config.ts resolves "react-i18next" here, for the page and the server
 * render alike, and for remix-i18next's `useChangeLanguage`; the types stay react-i18next's. The package's hook
 * serves every option (namespaces, key prefixes, suspense, waiting for a language's resources, bound store
 * events); this app has one namespace and loads a language before switching to it (app/i18n/client.ts), so what
 * is left is: the instance of the provider (else the one initReactI18next was given), the function
 * `getFixedT(null, defaultNS)` returns (one per language: shared/i18n/plain-texts.ts), and a new render when the
 * language changes. It keeps 1.3 KB gzip out of the first /home's JavaScript.
 */
import { createContext, createElement, useContext, useEffect, useState, type ReactNode } from "react";
import type { i18n as I18n, TFunction, ThirdPartyModule } from "i18next";

const I18nContext = createContext<I18n | null>(null);
let initialized: I18n | null = null;

export const initReactI18next: ThirdPartyModule = {
  type: "3rdParty",
  init(instance: I18n) {
    initialized = instance;
  },
};

export function I18nextProvider({ i18n, children }: { i18n: I18n; children?: ReactNode }) {
  return createElement(I18nContext.Provider, { value: i18n }, children);
}

/** As react-i18next's: `{ t, i18n, ready }`, also `[t, i18n, ready]`. */
export function useTranslation(): [TFunction, I18n, boolean] & { t: TFunction; i18n: I18n; ready: boolean } {
  const i18n = useContext(I18nContext) ?? initialized!;
  const [, setLanguage] = useState(i18n.language);
  useEffect(() => {
    const changed = (language: string) => setLanguage(language);
    i18n.on("languageChanged", changed);
    // A change between the render and this effect.
    setLanguage(i18n.language);
    return () => i18n.off("languageChanged", changed);
  }, [i18n]);
  const t = i18n.getFixedT(null, i18n.options.defaultNS as string);
  return Object.assign([t, i18n, true] as [TFunction, I18n, boolean], { t, i18n, ready: true });
}
