import type { LanguageCode } from "@shared/i18n/languages";
import ar from "~/locales/ar.json";
import de from "~/locales/de.json";
import en from "~/locales/en.json";
import es from "~/locales/es.json";
import fr from "~/locales/fr.json";
import hi from "~/locales/hi.json";
import it from "~/locales/it.json";
import ja from "~/locales/ja.json";
import ko from "~/locales/ko.json";
import pt from "~/locales/pt.json";
import ro from "~/locales/ro.json";
import ru from "~/locales/ru.json";
import uk from "~/locales/uk.json";
import zhCN from "~/locales/zh-CN.json";
import zhTW from "~/locales/zh-TW.json";

/**
 * Every locale, bundled for the server (the Worker has no file system): API errors, emails and the first
 * render come out in the request's language. The browser loads only its own language (app/i18n/client.ts).
 */
export const SERVER_RESOURCES: Record<LanguageCode, Record<string, string>> = {
  ar,
  de,
  en,
  es,
  fr,
  hi,
  it,
  ja,
  ko,
  pt,
  ro,
  ru,
  uk,
  "zh-CN": zhCN,
  "zh-TW": zhTW,
};
