import { useTranslation } from "react-i18next";
import { useServerText } from "~/lib/server-text";

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A calendar day ("2026-11-23", UTC) as `language` writes it, without a time; one formatter per language. */
function formatDay(language: string, day: string): string {
  let format = formatters.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
    formatters.set(language, format);
  }
  return format.format(new Date(`${day}T00:00:00Z`));
}

/**
 * A text with a calendar day in it that the hydration keeps as the server wrote it (useServerText): the
 * browser's first Intl.DateTimeFormat loads ICU's data, a long task on a phone. `render` gets the day's text.
 */
export function useDayText(
  day: string,
  extra: string,
  render: (dayText: string) => string,
): [id: string, text: string] {
  const { i18n } = useTranslation();
  return useServerText(`${day}|${extra}|${i18n.language}`, () => render(formatDay(i18n.language, day)));
}

/** A calendar day in the reader's language, as a <time>. */
export function CalendarDay({ day }: { day: string }) {
  const [id, text] = useDayText(day, "", (dayText) => dayText);
  return (
    <time id={id} dateTime={day}>
      {text}
    </time>
  );
}
