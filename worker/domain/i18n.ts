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

/** An i18next for one server render; it shares the loaded resources with every other request. */
export const i18nForLanguage = (language: string): I18n => instance.cloneInstance({ lng: language, initImmediate: false });
