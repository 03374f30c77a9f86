import type { LanguageCode } from "./languages";
import en from "../locales/en.json";

/**
 * Every locale, bundled for the server (the Worker has no file system). The browser loads only its own
 * language, through `loadClientResources` in app/i18n/client.ts.
 */
export const SERVER_RESOURCES: Partial<Record<LanguageCode, Record<string, string>>> = {
  en,
};
