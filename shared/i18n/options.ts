import type { InitOptions } from "i18next";
import { FALLBACK_LANGUAGE, SUPPORTED_LANGUAGES } from "./languages";

/** Shared by the server and the browser instances. Keys are the English sentences themselves. */
export const I18N_OPTIONS: InitOptions = {
  supportedLngs: [...SUPPORTED_LANGUAGES],
  fallbackLng: FALLBACK_LANGUAGE,
  defaultNS: "translation",
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
  react: { useSuspense: false },
};
