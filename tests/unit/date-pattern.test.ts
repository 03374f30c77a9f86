import { afterEach, describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "@shared/i18n/languages";
import {
  DATE_FORM_OPTIONS,
  DATE_FORMS,
  datePattern,
  datePatterns,
  formatWithDatePattern,
  learnDatePatterns,
  learntDatePattern,
} from "@shared/date-pattern";

/** Instants of many years, months, days, hours and minutes, the same ones each run (a fixed linear congruential sequence). */
function instants(count: number): Date[] {
  let seed = 20261127;
  const dates: Date[] = [];
  for (let i = 0; i < count; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    dates.push(new Date(Date.UTC(1990, 0, 1) + Math.floor((seed / 2 ** 31) * 60 * 365.25 * 86_400_000)));
  }
  return dates;
}

const utcFormat = (language: string, form: (typeof DATE_FORMS)[number]) =>
  new Intl.DateTimeFormat(language, { ...DATE_FORM_OPTIONS[form], timeZone: "UTC" });

describe("a language's way of writing dates, learnt from dates the server formatted", () => {
  // The app's languages, and others whose digits, clocks or day periods differ (Bengali, Persian and Eastern
  // Arabic digits, a 0–11 clock in Japanese's 12-hour form, British day-month order, a 24-hour English).
  const languages = [...SUPPORTED_LANGUAGES, "bn", "ar-EG", "ja-u-hc-h11", "en-GB", "en-u-hc-h23", "zh-Hant-HK"];

  it.each(languages)("writes every form of many dates as Intl does in %s", (language) => {
    const patterns = datePatterns(language);
    for (const form of DATE_FORMS) {
      const pattern = patterns[form];
      expect(pattern, form).toBeDefined();
      const format = utcFormat(language, form);
      for (const date of instants(400))
        expect(formatWithDatePattern(pattern!, date, true), `${form} ${date.toISOString()}`).toBe(format.format(date));
    }
  });

  describe("in the browser's own zone (the Date's local fields)", () => {
    const zoneBefore = process.env.TZ;
    afterEach(() => {
      process.env.TZ = zoneBefore;
    });

    it.each(["America/St_Johns", "Asia/Kolkata", "Europe/Berlin", "Pacific/Chatham"])(
      "matches Intl in %s, across its daylight saving changes",
      (zone) => {
        process.env.TZ = zone;
        expect(new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset()).not.toBe(0);
        for (const language of ["en", "de", "ko", "zh-TW", "ar"]) {
          for (const form of DATE_FORMS) {
            const pattern = datePatterns(language)[form]!;
            const format = new Intl.DateTimeFormat(language, { ...DATE_FORM_OPTIONS[form], timeZone: zone });
            for (const date of instants(200))
              expect(formatWithDatePattern(pattern, date), `${language} ${form} ${date.toISOString()}`).toBe(
                format.format(date),
              );
          }
        }
      },
    );
  });

  it("has no pattern where the fields do not read as the Date's (a 1–24 clock, the Buddhist and Persian calendars), nor for a formatter that is not one of the forms", () => {
    expect(
      datePattern(new Intl.DateTimeFormat("en-u-hc-h24", { ...DATE_FORM_OPTIONS.time, timeZone: "UTC" })),
    ).toBeNull();
    expect(
      datePattern(new Intl.DateTimeFormat("th-TH-u-ca-buddhist", { ...DATE_FORM_OPTIONS.date, timeZone: "UTC" })),
    ).toBeNull();
    expect(datePattern(new Intl.DateTimeFormat("fa", { ...DATE_FORM_OPTIONS.date, timeZone: "UTC" }))).toBeNull();
    expect(datePattern(new Intl.DateTimeFormat("en", { weekday: "long", timeZone: "UTC" }))).toBeNull();
    // A formatter that writes one hour of the day otherwise: the pattern read from the others does not write it.
    const format = utcFormat("en", "dateTime");
    const liar = {
      formatToParts: (date: Date) => format.formatToParts(date),
      format: (date: Date) => format.format(date).replace(/ 3:(\d\d) AM/, " 03:$1 AM"),
    } as Intl.DateTimeFormat;
    expect(datePattern(liar)).toBeNull();
    expect(datePatterns("en").dateTime).not.toBeNull();
  });

  it("is kept per language once learnt, the first patterns a language was given staying", () => {
    const patterns = datePatterns("fr");
    learnDatePatterns("fr-test", patterns);
    learnDatePatterns("fr-test", datePatterns("en"));
    learnDatePatterns("de-test", null);
    expect(learntDatePattern("fr-test", "dateTime")).toEqual(patterns.dateTime);
    expect(learntDatePattern("de-test", "date")).toBeUndefined();
  });
});
