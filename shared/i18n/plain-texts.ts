import type { i18n as I18n, TFunction } from "i18next";

/**
 * Makes `i18n.getFixedT` for its own language and one namespace (what useTranslation asks for on every render)
 * return one function per language and namespace, which answers a plain text, `t(key)` without options, from a map
 * after its first lookup: i18next's resolution (languages, fallback, nesting, interpolation) costs more than the
 * element it labels, and a page asks for the same few dozen texts hundreds of times (a feed's twenty cards label
 * their actions each). The answer is i18next's own, kept per language: a language's texts are complete before the
 * first of them is asked (bundled on the server; in the browser, i18next loads a language before switching to it).
 */
export function cachingPlainTexts(i18n: I18n, maxTexts: number): I18n {
  type Translator = (...args: unknown[]) => unknown;
  const getFixedT = i18n.getFixedT.bind(i18n) as unknown as (
    lng: unknown,
    ns?: unknown,
    keyPrefix?: unknown,
  ) => Translator;
  const made = new Map<string, TFunction>();
  i18n.getFixedT = ((lng: unknown, ns?: unknown, keyPrefix?: unknown) => {
    if ((lng && lng !== i18n.language) || (ns && typeof ns !== "string") || keyPrefix)
      return getFixedT(lng, ns, keyPrefix);
    const slot = `${i18n.language}\u0000${(ns as string | null | undefined) ?? ""}`;
    let cached = made.get(slot);
    if (!cached) {
      const translate = getFixedT(lng, ns);
      const texts = new Map<string, unknown>();
      cached = ((...args: unknown[]) => {
        const key = args[0];
        if (args.length !== 1 || typeof key !== "string") return translate(...args);
        let text = texts.get(key);
        if (text === undefined) {
          text = translate(key);
          if (texts.size < maxTexts) texts.set(key, text);
        }
        return text;
      }) as unknown as TFunction;
      made.set(slot, cached);
    }
    return cached;
  }) as I18n["getFixedT"];
  return i18n;
}
