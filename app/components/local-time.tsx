import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * A date and time (or only the date) in the reader's language and time zone. The server cannot know the zone, so it renders UTC
 * (marked as such) and the browser switches to local time after hydration, without a hydration mismatch.
 */
export function LocalTime({ iso, className, dateOnly = false }: { iso: string; className?: string; dateOnly?: boolean }) {
  const { i18n } = useTranslation();
  const [local, setLocal] = useState(false);
  useEffect(() => setLocal(true), []);
  // dateStyle/timeStyle cannot be combined with timeZoneName, hence the separate fields.
  const text = new Date(iso).toLocaleString(i18n.language, {
    year: "numeric",
    month: "short",
    day: "numeric",
    ...(dateOnly ? {} : { hour: "numeric", minute: "2-digit" }),
    ...(local ? {} : { timeZone: "UTC", timeZoneName: "short" }),
  });
  return (
    <time dateTime={iso} className={className}>
      {text}
    </time>
  );
}
