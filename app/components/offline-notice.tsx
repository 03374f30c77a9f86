import { useTranslation } from "react-i18next";
import type { OfflineMark } from "~/lib/offline-copies";
import { LocalTime } from "~/components/local-time";

/** "Offline — showing what was saved at {time}" above a screen that shows its saved copy (app/lib/offline-copies.ts). */
export function OfflineNotice({ offline }: { offline: OfflineMark | null | undefined }) {
  const { t } = useTranslation();
  if (!offline) return null;
  const [before, after] = t("Offline — showing what was saved at {{time}}", { time: "\u0000" }).split("\u0000");
  return (
    <p
      role="status"
      data-testid="offline-notice"
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      {before}
      <LocalTime iso={new Date(offline.savedAt).toISOString()} />
      {after}
    </p>
  );
}
