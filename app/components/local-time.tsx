import { startTransition, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/root";
import { TIME_ZONE_COOKIE } from "@shared/time-zone";
import { whenIdle } from "~/lib/idle";
import { useServerText } from "~/lib/server-text";

/**
 * Formatters by language, form and zone. Building an Intl.DateTimeFormat is the expensive part (it loads the
 * locale's data; `toLocaleString` with options builds a new one on every call), so each is built once. `zone`:
 * an IANA name, or null for the browser's own zone; "unknown" renders UTC and says so (the server's page for a
 * reader whose zone it does not know yet). The server renders for any reader, so it keeps at most a few hundred.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(language: string, dateOnly: boolean, zone: string | null | "unknown"): Intl.DateTimeFormat {
  const key = `${language}|${dateOnly ? "d" : "dt"}|${zone}`;
  let format = formatters.get(key);
  if (!format) {
    // dateStyle/timeStyle cannot be combined with timeZoneName, hence the separate fields.
    format = new Intl.DateTimeFormat(language, {
      year: "numeric",
      month: "short",
      day: "numeric",
      ...(dateOnly ? {} : { hour: "numeric", minute: "2-digit" }),
      ...(zone === "unknown" ? { timeZone: "UTC", timeZoneName: "short" } : zone ? { timeZone: zone } : {}),
    });
    if (formatters.size >= 300) formatters.clear();
    formatters.set(key, format);
  }
  return format;
}

let browserZone: Promise<string> | undefined;

/**
 * The browser's zone, learnt once the page has loaded and is idle: it builds the first formatter, hence loads ICU's
 * data, in a task of its own instead of the hydration's. The first answer also tells the server the browser's zone
 * for the next pages (a cookie, read by app/lib/time-zone.server.ts), when it differs from the one this page used.
 */
function whenBrowserZoneKnown(serverZone: string | null): Promise<string> {
  browserZone ??= new Promise((resolve) => {
    whenIdle(() => {
      const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (zone !== serverZone) document.cookie = `${TIME_ZONE_COOKIE}=${zone}; Path=/; Max-Age=31536000; SameSite=Lax; Secure`;
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
export function LocalTime({ iso, className, dateOnly = false }: { iso: string; className?: string; dateOnly?: boolean }) {
  const { i18n } = useTranslation();
  const { serverZone, local } = useReaderZone();
  // While the page hydrates, the text the server wrote: a browser's first Intl.DateTimeFormat loads ICU's data
  // (80–190 ms on an emulated phone), which would otherwise sit inside the hydration's long task.
  const [id, text] = useServerText(`${iso}|${dateOnly}|${i18n.language}|${local}|${serverZone}`, () =>
    formatterFor(i18n.language, dateOnly, local ? null : (serverZone ?? "unknown")).format(new Date(iso)),
  );
  return (
    <time id={id} dateTime={iso} className={className}>
      {text}
    </time>
  );
}
