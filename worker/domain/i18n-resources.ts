import type { LanguageCode } from "@shared/i18n/languages";
import ar from "../../app/locales/ar.json";
import de from "../../app/locales/de.json";
import en from "../../app/locales/en.json";
import es from "../../app/locales/es.json";
import fr from "../../app/locales/fr.json";
import hi from "../../app/locales/hi.json";
import it from "../../app/locales/it.json";
import ja from "../../app/locales/ja.json";
import ko from "../../app/locales/ko.json";
import pt from "../../app/locales/pt.json";
import ro from "../../app/locales/ro.json";
import ru from "../../app/locales/ru.json";
import uk from "../../app/locales/uk.json";
import zhCN from "../../app/locales/zh-CN.json";
import zhTW from "../../app/locales/zh-TW.json";

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
