import i18next, { type i18n as I18n, type TFunction } from "i18next";
import { I18N_OPTIONS } from "@shared/i18n/options";
import { formatCents } from "@shared/money";
import { cachingPlainTexts } from "@shared/i18n/plain-texts";
import { SERVER_RESOURCES } from "./i18n-resources";

export type Translate = TFunction;

/**
 * `{{min, money}}` in a server text writes a variable of cents as the reader's language writes dollars ("$1.00",
 * "1,00 $"): an error is made before the reader's language is known, and its amounts are written when it is
 * translated. The server's texts only: the browser's bundle has no such format (its texts get amounts formatted).
 */
const serverFormat = (value: unknown, format: string | undefined, language: string | undefined) =>
  format === "money" ? formatCents(value as number, language!) : (value as string);

const instance = i18next.createInstance();
void instance.init({
  ...I18N_OPTIONS,
  interpolation: { ...I18N_OPTIONS.interpolation, format: serverFormat },
  resources: Object.fromEntries(Object.entries(SERVER_RESOURCES).map(([lng, translation]) => [lng, { translation }])),
  initImmediate: false,
});

/** A translate function for messages the server sends: API errors, emails. */
export const translatorFor = (language: string): Translate => instance.getFixedT(language);

/** How many plain texts a language keeps translated: every key the app has, and a bound on any others. */
const MAX_CACHED_TEXTS = 5_000;

/**
 * Server renders only read their i18next (the language never changes on the server), so each language has one,
 * made on first use and shared by every render in it, with the loaded resources of every other.
 */
const renderInstances = new Map<string, I18n>();

export function i18nForLanguage(language: string): I18n {
  let i18n = renderInstances.get(language);
  if (!i18n) {
    i18n = cachingPlainTexts(instance.cloneInstance({ lng: language, initImmediate: false }), MAX_CACHED_TEXTS);
    renderInstances.set(language, i18n);
  }
  return i18n;
}
