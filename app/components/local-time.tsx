import { startTransition, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * Formatters by language and form. Building an Intl.DateTimeFormat is the expensive part (it loads the locale's
 * data; `toLocaleString` with options builds a new one on every call): a feed of posts formats every date twice
 * at start-up (UTC in the hydration render, then local), so each form is built once per page.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(language: string, dateOnly: boolean, local: boolean): Intl.DateTimeFormat {
  const key = `${language}|${dateOnly ? "d" : "dt"}|${local ? "local" : "utc"}`;
  let format = formatters.get(key);
  if (!format) {
    // dateStyle/timeStyle cannot be combined with timeZoneName, hence the separate fields.
    format = new Intl.DateTimeFormat(language, {
      year: "numeric",
      month: "short",
      day: "numeric",
      ...(dateOnly ? {} : { hour: "numeric", minute: "2-digit" }),
      ...(local ? {} : { timeZone: "UTC", timeZoneName: "short" }),
    });
    formatters.set(key, format);
  }
  return format;
}

/**
 * A date and time (or only the date) in the reader's language and time zone. The server cannot know the zone, so it renders UTC
 * (marked as such) and the browser switches to local time after hydration, without a hydration mismatch.
 */
export function LocalTime({ iso, className, dateOnly = false }: { iso: string; className?: string; dateOnly?: boolean }) {
  const { i18n } = useTranslation();
  const [local, setLocal] = useState(false);
  // A transition: every date of a feed switches at once after hydration, and that render may yield to input
  // rather than block the main thread in one long task.
  useEffect(() => startTransition(() => setLocal(true)), []);
  const text = formatterFor(i18n.language, dateOnly, local).format(new Date(iso));
  return (
    <time dateTime={iso} className={className}>
      {text}
    </time>
  );
}
