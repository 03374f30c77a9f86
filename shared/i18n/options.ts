import type { InitOptions } from "i18next";
import { FALLBACK_LANGUAGE, SUPPORTED_LANGUAGES } from "@shared/i18n/languages";
import { formatCents } from "@shared/money";

/**
 * Shared by the server and the browser instances. Keys are the English sentences themselves. `{{min, money}}` in a
 * text writes a variable of cents as the reader's language writes dollars ("$1.00", "1,00 $"): a sentence the
 * Worker builds before it knows the reader's language gets its amounts written when it is translated.
 */
export const I18N_OPTIONS: InitOptions = {
  supportedLngs: SUPPORTED_LANGUAGES as string[],
  fallbackLng: FALLBACK_LANGUAGE,
  defaultNS: "translation",
  keySeparator: false,
  nsSeparator: false,
  interpolation: {
    escapeValue: false,
    format: (value: unknown, format: string | undefined, language: string | undefined) =>
      format === "money" && typeof value === "number" ? formatCents(value, language ?? FALLBACK_LANGUAGE) : (value as string),
  },
  returnEmptyString: false,
  react: { useSuspense: false },
};
