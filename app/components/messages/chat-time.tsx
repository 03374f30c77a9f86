import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * When a message was sent, short: the time if it was today, else the day and the time. In the reader's zone once
 * hydrated; the server cannot know the zone, so its render (and the hydration) uses UTC.
 */
export function ChatTime({ iso, className }: { iso: string; className?: string }) {
  const { i18n } = useTranslation();
  const [local, setLocal] = useState(false);
  useEffect(() => setLocal(true), []);
  const at = new Date(iso);
  const timeZone = local ? undefined : "UTC";
  const day = (date: Date) => date.toLocaleDateString("en-CA", { timeZone });
  const time: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit", timeZone };
  const text = day(at) === day(new Date()) ? at.toLocaleTimeString(i18n.language, time) : at.toLocaleString(i18n.language, { month: "short", day: "numeric", ...time });
  return (
    <time dateTime={iso} className={className}>
      {text}
    </time>
  );
}
