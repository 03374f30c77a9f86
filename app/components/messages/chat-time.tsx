import { useTranslation } from "react-i18next";
import { useReaderZone } from "~/components/local-time";
import { useServerText } from "~/lib/server-text";

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
 * When a message was sent, short: the time if it was today, else the day and the time, in the reader's zone. As
 * LocalTime does: the server renders the zone the browser named in its cookie (else UTC), the hydration keeps the
 * server's text (no formatter built then: the browser's first loads ICU's data), and once the page is idle a
 * thread rendered in another zone than the browser's switches to local time.
 */
export function ChatTime({ iso, className }: { iso: string; className?: string }) {
  const { i18n } = useTranslation();
  const { serverZone, local } = useReaderZone();
  const [id, text] = useServerText(`${iso}|${i18n.language}|${local}|${serverZone}`, () => {
    const at = new Date(iso);
    const timeZone = local ? undefined : (serverZone ?? "UTC");
    const day = (date: Date) => formatterFor("en-CA", "day", timeZone).format(date);
    return formatterFor(i18n.language, day(at) === day(new Date()) ? "time" : "dayTime", timeZone).format(at);
  });
  return (
    <time id={id} dateTime={iso} className={className}>
      {text}
    </time>
  );
}
