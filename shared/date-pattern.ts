/**
 * How a language writes the app's dates and times, read by the server from dates it formatted and handed to the
 * browser with the root's data, so the browser writes a date in its own zone without `Intl`: the first
 * `Intl.DateTimeFormat` a browser builds loads ICU's data (160–180 ms on an emulated phone at 4× CPU), and on a
 * first visit that was the longest task after the hydration, when the page switched its dates to local time. The
 * browser fills the pattern with the Date's local fields (getHours and so on, which load nothing). The money's
 * counterpart is ./money-pattern.ts.
 *
 * A pattern is the formatted date's parts in order: literal texts, and fields written from one of the Date's
 * fields: with the names the language gives them (months, even "11" for 11月, and the hours' day periods: "AM",
 * "下午"), else as a number of a minimum width in the language's digits (an hour first reduced to a 12-hour clock
 * where the language uses one). It is read from formatToParts and kept only if it writes every sample date exactly as Intl does (every
 * month, hour and many days and minutes); otherwise null, and the browser formats with Intl.
 */

/** The app's forms: LocalTime's date and date with time, a chat message's time and day with time. */
export type DateForm = "date" | "dateTime" | "time" | "dayTime";

const TIME: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit" };
export const DATE_FORM_OPTIONS: Record<DateForm, Intl.DateTimeFormatOptions> = {
  date: { year: "numeric", month: "short", day: "numeric" },
  dateTime: { year: "numeric", month: "short", day: "numeric", ...TIME },
  time: TIME,
  dayTime: { month: "short", day: "numeric", ...TIME },
};
export const DATE_FORMS = Object.keys(DATE_FORM_OPTIONS) as DateForm[];

/** The Date's field a part is written from (`get${field}` for local time, `getUTC${field}` for UTC). */
type Field = "FullYear" | "Month" | "Date" | "Hours" | "Minutes";

/** A field written by name (n: indexed by the field's value) or as a number (w: minimum width; c: 12 on a 12-hour clock; z: what 0 reads as on it). */
type FieldToken = { f: Field; n: string[] } | { f: Field; w: number; c?: 12; z?: number };

export interface DatePattern {
  /** The parts in order: literal text, or a field. */
  p: Array<string | FieldToken>;
  /** The language's digit for 0–9. */
  d: string[];
}

export type DatePatterns = Partial<Record<DateForm, DatePattern>>;

/** `date` written with `pattern`, from its local fields (the browser's zone) or, with `utc`, its UTC ones. */
export function formatWithDatePattern(pattern: DatePattern, date: Date, utc = false): string {
  return pattern.p
    .map((part) => {
      if (typeof part === "string") return part;
      const value: number = date[`get${utc ? "UTC" : ""}${part.f}`]();
      if ("n" in part) return part.n[value];
      const shown = part.c ? value % part.c || part.z! : value;
      return String(shown)
        .padStart(part.w, "0")
        .replace(/\d/g, (digit) => pattern.d[+digit]!);
    })
    .join("");
}

const PART_FIELDS: Partial<Record<Intl.DateTimeFormatPartTypes, Field>> = {
  year: "FullYear",
  month: "Month",
  day: "Date",
  hour: "Hours",
  minute: "Minutes",
  dayPeriod: "Hours",
};
const DIGIT = /\p{Nd}/gu;
const utc = (month: number, day: number, hour: number, minute: number, year = 2026) =>
  new Date(Date.UTC(year, month, day, hour, minute));

/** The dates a pattern must write exactly as Intl does: every month, every hour, several days, minutes and years. */
function samples(): Date[] {
  const dates: Date[] = [];
  for (let month = 0; month < 12; month++) for (const day of [1, 9, 10, 28]) dates.push(utc(month, day, 10, 7));
  for (let hour = 0; hour < 24; hour++) for (const minute of [0, 5, 30, 59]) dates.push(utc(10, 27, hour, minute));
  dates.push(utc(0, 31, 23, 59, 2009), utc(6, 4, 9, 1, 2031), utc(11, 31, 0, 0, 1999));
  return dates;
}

/** The pattern `format` (a formatter of one of DATE_FORM_OPTIONS, in UTC) follows, or null if none does. */
export function datePattern(format: Intl.DateTimeFormat): DatePattern | null {
  try {
    // The parts' values as format() writes them: V8 writes a narrow no-break space (U+202F, before "г." or "PM")
    // as a plain space in format(), not in formatToParts().
    const partsAt = (date: Date) => {
      const text = format.format(date);
      let offset = 0;
      return format
        .formatToParts(date)
        .map(({ type, value }) => ({ type, value: text.slice(offset, (offset += value.length)) }));
    };
    const valueOf = (date: Date, type: Intl.DateTimeFormatPartTypes) =>
      partsAt(date).find((part) => part.type === type)?.value ?? "";
    // Digits: the days 1–9 and 10 (the last digit of each, whatever the width).
    const d: string[] = [];
    for (let day = 1; day <= 10; day++) {
      const text = valueOf(utc(0, day, 10, 7), "day") || valueOf(utc(0, 1, 10, day), "minute");
      const digit = [...text].at(-1);
      if (digit === undefined || !/\p{Nd}/u.test(digit)) return null;
      d[day % 10] = digit;
    }
    const base = partsAt(utc(10, 7, 13, 5));
    const p: DatePattern["p"] = [];
    for (const { type, value } of base) {
      const f = PART_FIELDS[type];
      if (type === "literal") p.push(value);
      else if (!f) return null;
      else if (type === "month")
        p.push({ f, n: Array.from({ length: 12 }, (_, month) => valueOf(utc(month, 7, 13, 5), "month")) });
      else if (type === "dayPeriod")
        p.push({ f, n: Array.from({ length: 24 }, (_, hour) => valueOf(utc(10, 7, hour, 5), "dayPeriod")) });
      else if (type === "hour") {
        // The width of a one-digit hour (1 a.m.), and the clock: what midnight and 1 p.m. read as.
        const hourAt = (hour: number) =>
          Number(valueOf(utc(10, 7, hour, 5), "hour").replace(DIGIT, (digit) => String(d.indexOf(digit))));
        const midnight = hourAt(0);
        const afternoon = hourAt(13);
        const w = valueOf(utc(10, 7, 1, 5), "hour").length;
        p.push(afternoon === 1 ? { f, w, c: 12, z: midnight } : { f, w });
      } else p.push({ f, w: type === "year" ? 1 : valueOf(utc(0, 1, 1, 1), type).length });
    }
    const pattern = { p, d };
    return samples().every((date) => formatWithDatePattern(pattern, date, true) === format.format(date))
      ? pattern
      : null;
  } catch {
    return null;
  }
}

/** Every form's pattern for `language` (a form without one is left out: the browser formats it with Intl). */
export function datePatterns(language: string): DatePatterns {
  const patterns: DatePatterns = {};
  for (const form of DATE_FORMS) {
    const pattern = datePattern(new Intl.DateTimeFormat(language, { ...DATE_FORM_OPTIONS[form], timeZone: "UTC" }));
    if (pattern) patterns[form] = pattern;
  }
  return patterns;
}

/** Patterns the browser was given, by language (app/root.tsx, from the root loader's data). */
const learntPatterns = new Map<string, DatePatterns>();

/** The browser keeps `language`'s patterns for LocalTime and ChatTime (before any date renders). */
export function learnDatePatterns(language: string, patterns: DatePatterns | null | undefined): void {
  if (patterns && !learntPatterns.has(language)) learntPatterns.set(language, patterns);
}

export const learntDatePattern = (language: string, form: DateForm): DatePattern | undefined =>
  learntPatterns.get(language)?.[form];
