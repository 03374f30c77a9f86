import type { MetaArgs, MetaDescriptor, MetaFunction } from "@remix-run/cloudflare";
import type { TFunction } from "i18next";
import { FALLBACK_LANGUAGE } from "@shared/i18n/languages";

type TranslatorFor = (language: string) => TFunction;

/** Until an entry module says otherwise (unit tests, say), titles stay in English: the keys are English. */
let translatorFor: TranslatorFor = () => ((key: string) => key) as TFunction;

/**
 * Where translations come from on each side: the server's every-language resources (entry.server.tsx), the
 * browser's i18next (entry.client.tsx). The language itself is never global: each call names it, read from the
 * root loader's data, so concurrent server renders in different languages cannot mix.
 */
export function provideMetaTranslations(source: TranslatorFor) {
  translatorFor = source;
}

/** A text in the page's language, outside React (a clientAction): the browser's i18next, in <html lang>'s language. */
export const pageT = (key: string): string => translatorFor(document.documentElement.lang)(key);

/** The page's language: the root loader's (app/root.tsx), which is the language of the server render. */
function languageOf(matches: MetaArgs["matches"]): string {
  const root = matches.find((match) => match.id === "root")?.data as { language?: unknown } | undefined;
  return typeof root?.language === "string" ? root.language : FALLBACK_LANGUAGE;
}

/** A document title: the page's own name, then the product's (a brand, never translated). */
export const titleTag = (title: string): MetaDescriptor => ({ title: `${title} · Fanclub` });

/**
 * A route's `meta` in the page's language. Remix calls `meta` outside React's hooks, on the server and after
 * every client navigation, so it gets a `t` for the language of the root data rather than `useTranslation`.
 */
export function pageMeta<Loader = unknown>(
  describe: (t: TFunction, args: MetaArgs<Loader>) => MetaDescriptor[],
): MetaFunction<Loader> {
  return (args) => describe(translatorFor(languageOf(args.matches)), args);
}
