import { startTransition, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/root";
import { TIME_ZONE_COOKIE } from "@shared/time-zone";
import { whenIdle } from "~/lib/idle";
import { useServerText } from "~/lib/server-text";
import { DATE_FORM_OPTIONS, formatWithDatePattern, learntDatePattern, type DateForm } from "@shared/date-pattern";

/**
 * Formatters by language, form and zone. Building an Intl.DateTimeFormat is the expensive part (it loads the
 * locale's data; `toLocaleString` with options builds a new one on every call), so each is built once. `zone`:
 * an IANA name, or null for the browser's own zone; "unknown" renders UTC and says so (the server's page for a
 * reader whose zone it does not know yet). The server renders for any reader, so it keeps at most a few hundred.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(language: string, form: DateForm, zone: string | null | "unknown"): Intl.DateTimeFormat {
  const key = `${language}|${form}|${zone}`;
  let format = formatters.get(key);
  if (!format) {
    // dateStyle/timeStyle cannot be combined with timeZoneName, hence the separate fields.
    format = new Intl.DateTimeFormat(language, {
      ...DATE_FORM_OPTIONS[form],
      ...(zone === "unknown" ? { timeZone: "UTC", timeZoneName: "short" } : zone ? { timeZone: zone } : {}),
    });
    if (formatters.size >= 300) formatters.clear();
    formatters.set(key, format);
  }
  return format;
}

/** The browser's zone, once known (whenBrowserZoneKnown), or where it can be read without loading ICU's data. */
let knownBrowserZone: string | undefined;
function browserZoneWithoutIntl(): string | undefined {
  try {
    // Temporal (Chromium 144, Firefox 139) names the zone at no cost; Intl loads ICU's data to say it.
    knownBrowserZone ??= (globalThis as { Temporal?: { Now: { timeZoneId(): string } } }).Temporal?.Now.timeZoneId();
  } catch {
    // An engine's half-done Temporal: Intl says it later.
  }
  return knownBrowserZone;
}

/** Whether `zone` (null: the browser's own) is the zone of the browser this runs in, as far as it can tell without Intl. */
const isBrowserZone = (zone: string | null) =>
  typeof document !== "undefined" && (zone === null || zone === browserZoneWithoutIntl());

/**
 * `date` in `language`, in one of the app's forms, in `zone` (as formatterFor). In the browser, in its own zone,
 * with the pattern the server gave the page (shared/date-pattern.ts): the Date's local fields, no Intl.
 */
export function formatDate(language: string, form: DateForm, zone: string | null | "unknown", date: Date): string {
  // "unknown" is never the browser's zone: it is written in UTC, marked, with Intl.
  const pattern = isBrowserZone(zone) ? learntDatePattern(language, form) : undefined;
  return pattern ? formatWithDatePattern(pattern, date) : formatterFor(language, form, zone).format(date);
}

/** Whether `date` is today in `zone` (null: the browser's own). */
export function isToday(date: Date, zone: string | null): boolean {
  if (isBrowserZone(zone)) return date.toDateString() === new Date().toDateString();
  const day = formatterFor("en-CA", "date", zone);
  return day.format(date) === day.format(new Date());
}

let browserZone: Promise<string> | undefined;

/**
 * The browser's zone, learnt once the page has loaded and is idle (with Intl, where there is no Temporal, that
 * builds the first formatter, hence loads ICU's data, in a task of its own instead of the hydration's). The first
 * answer also tells the server the browser's zone for the next pages (a cookie, read by
 * app/lib/time-zone.server.ts), when it differs from the one this page used.
 */
function whenBrowserZoneKnown(serverZone: string | null): Promise<string> {
  browserZone ??= new Promise((resolve) => {
    whenIdle(() => {
      const zone = (knownBrowserZone =
        browserZoneWithoutIntl() ?? new Intl.DateTimeFormat().resolvedOptions().timeZone);
      if (zone !== serverZone)
        document.cookie = `${TIME_ZONE_COOKIE}=${zone}; Path=/; Max-Age=31536000; SameSite=Lax; Secure`;
      resolve(zone);
    });
  });
  return browserZone;
}

/**
 * The zone the server rendered the page's times in (the `tz` cookie's, null when it knew none: UTC), and whether
 * they are to be shown in the browser's own zone instead: from the moment, once the page is idle, the browser's
 * zone is known to differ. A transition: every time of the page switches at once, in a render that may yield to
 * input rather than block the main thread in one long task. Used by LocalTime and a chat's ChatTime.
 */
export function useReaderZone(): { serverZone: string | null; local: boolean } {
  const serverZone = useRootData()?.timeZone ?? null;
  const [local, setLocal] = useState(false);
  useEffect(() => {
    let current = true;
    void whenBrowserZoneKnown(serverZone).then((zone) => {
      if (current && zone !== serverZone) startTransition(() => setLocal(true));
    });
    return () => {
      current = false;
    };
  }, [serverZone]);
  return { serverZone, local };
}

/**
 * A date and time (or only the date) in the reader's language and time zone. The server renders the zone the
 * browser named in its cookie, else UTC (marked as such); the hydration keeps the server's text; once the page is
 * idle, a page rendered in another zone than the browser's switches to local time, without a hydration mismatch.
 * From the second page on, nothing switches.
 */
export function LocalTime({
  iso,
  className,
  dateOnly = false,
}: {
  iso: string;
  className?: string;
  dateOnly?: boolean;
}) {
  const { i18n } = useTranslation();
  const { serverZone, local } = useReaderZone();
  // While the page hydrates, the text the server wrote: a browser's first Intl.DateTimeFormat loads ICU's data
  // (80–190 ms on an emulated phone), which would otherwise sit inside the hydration's long task.
  const [id, text] = useServerText(`${iso}|${dateOnly}|${i18n.language}|${local}|${serverZone}`, () =>
    formatDate(i18n.language, dateOnly ? "date" : "dateTime", local ? null : (serverZone ?? "unknown"), new Date(iso)),
  );
  return (
    <time id={id} dateTime={iso} className={className}>
      {text}
    </time>
  );
}
