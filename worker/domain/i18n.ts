import i18next, { type i18n as I18n, type TFunction } from "i18next";
import { I18N_OPTIONS } from "@shared/i18n/options";
import { SERVER_RESOURCES } from "./i18n-resources";

export type Translate = TFunction;

const instance = i18next.createInstance();
void instance.init({
  ...I18N_OPTIONS,
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
    i18n = cachingPlainTexts(instance.cloneInstance({ lng: language, initImmediate: false }));
    renderInstances.set(language, i18n);
  }
  return i18n;
}

/**
 * The `t` of useTranslation (this language, one namespace, no prefix) answers a plain text, `t(key)` without
 * options, from a map after its first lookup: i18next's resolution (languages, fallback, nesting, interpolation)
 * costs more than the element it labels, and a page asks for the same texts on every render (the shell's labels
 * alone are some fifty calls). The answer is i18next's own, and the resources never change on the server.
 */
function cachingPlainTexts(i18n: I18n): I18n {
  type Translator = (...args: unknown[]) => unknown;
  const getFixedT = i18n.getFixedT.bind(i18n) as unknown as (lng: unknown, ns?: unknown, keyPrefix?: unknown) => Translator;
  const byNamespace = new Map<string, TFunction>();
  i18n.getFixedT = ((lng: unknown, ns?: unknown, keyPrefix?: unknown) => {
    if ((lng && lng !== i18n.language) || (ns && typeof ns !== "string") || keyPrefix) return getFixedT(lng, ns, keyPrefix);
    const namespace = (ns as string | null | undefined) ?? "";
    let cached = byNamespace.get(namespace);
    if (!cached) {
      const translate = getFixedT(lng, ns);
      const texts = new Map<string, unknown>();
      cached = ((...args: unknown[]) => {
        const key = args[0];
        if (args.length !== 1 || typeof key !== "string") return translate(...args);
        let text = texts.get(key);
        if (text === undefined) {
          text = translate(key);
          if (texts.size < MAX_CACHED_TEXTS) texts.set(key, text);
        }
        return text;
      }) as unknown as TFunction;
      byNamespace.set(namespace, cached);
    }
    return cached;
  }) as I18n["getFixedT"];
  return i18n;
}
