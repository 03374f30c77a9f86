import { startTransition, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** Formatters by language, form and zone, built once: a thread formats every message's time twice at start-up. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(language: string, form: "day" | "time" | "dayTime", timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${language}|${form}|${timeZone ?? ""}`;
  let format = formatters.get(key);
  if (!format) {
    const time: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit", timeZone };
    format = new Intl.DateTimeFormat(language, form === "day" ? { year: "numeric", month: "2-digit", day: "2-digit", timeZone } : form === "time" ? time : { month: "short", day: "numeric", ...time });
    formatters.set(key, format);
  }
  return format;
}

/**
 * When a message was sent, short: the time if it was today, else the day and the time. In the reader's zone once
 * hydrated; the server cannot know the zone, so its render (and the hydration) uses UTC.
 */
export function ChatTime({ iso, className }: { iso: string; className?: string }) {
  const { i18n } = useTranslation();
  const [local, setLocal] = useState(false);
  // A transition: every date of a feed switches at once after hydration, and that render may yield to input
  // rather than block the main thread in one long task.
  useEffect(() => startTransition(() => setLocal(true)), []);
  const at = new Date(iso);
  const timeZone = local ? undefined : "UTC";
  const day = (date: Date) => formatterFor("en-CA", "day", timeZone).format(date);
  const text = formatterFor(i18n.language, day(at) === day(new Date()) ? "time" : "dayTime", timeZone).format(at);
  return (
    <time dateTime={iso} className={className}>
      {text}
    </time>
  );
}
