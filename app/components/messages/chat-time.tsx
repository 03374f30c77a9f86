import { useTranslation } from "react-i18next";
import { formatDate, isToday, useReaderZone } from "~/components/local-time";
import { useServerText } from "~/lib/server-text";

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
    const zone = local ? null : (serverZone ?? "UTC");
    return formatDate(i18n.language, isToday(at, zone) ? "time" : "dayTime", zone, at);
  });
  return (
    <time id={id} dateTime={iso} className={className}>
      {text}
    </time>
  );
}
