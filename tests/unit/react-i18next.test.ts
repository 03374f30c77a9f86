import { describe, expect, it } from "vitest";
import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import i18next from "i18next";
import { I18nextProvider, initReactI18next, useTranslation } from "~/i18n/react-i18next";
import { I18N_OPTIONS } from "@shared/i18n/options";

/** An instance in `language` with one text translated, as the app starts them (one namespace, keys are English). */
async function instance(language: string, text: string) {
  const i18n = i18next.createInstance();
  await i18n.init({
    ...I18N_OPTIONS,
    lng: language,
    fallbackLng: false,
    resources: { [language]: { translation: { Home: text } } },
  });
  return i18n;
}

/** What a component sees of useTranslation, written out by a server render. */
function rendered(wrap: (child: ReactNode) => ReactNode = (child) => child) {
  function Probe() {
    const translation = useTranslation();
    const [t, i18n, ready] = translation;
    return createElement(
      "p",
      null,
      `${translation.t("Home")}|${t("Home")}|${translation.i18n.language}|${i18n === translation.i18n}|${ready && translation.ready}`,
    );
  }
  return renderToStaticMarkup(wrap(createElement(Probe)));
}

describe("the part of react-i18next the app uses (app/i18n/react-i18next.ts)", () => {
  it("translates with the provider's instance, else the one initReactI18next was given, as an object and as a tuple", async () => {
    const german = await instance("de", "Startseite");
    await german.use(initReactI18next).init();
    expect(rendered()).toBe("<p>Startseite|Startseite|de|true|true</p>");
    const french = await instance("fr", "Accueil");
    expect(rendered((child) => createElement(I18nextProvider, { i18n: french }, child))).toBe(
      "<p>Accueil|Accueil|fr|true|true</p>",
    );
  });

  it("answers with the instance's current language after a switch", async () => {
    const i18n = await instance("de", "Startseite");
    i18n.addResourceBundle("it", "translation", { Home: "Pagina iniziale" });
    await i18n.changeLanguage("it");
    expect(rendered((child) => createElement(I18nextProvider, { i18n }, child))).toBe(
      "<p>Pagina iniziale|Pagina iniziale|it|true|true</p>",
    );
  });
});
