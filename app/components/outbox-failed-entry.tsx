import { useTranslation } from "react-i18next";
import type { OutboxEntry } from "~/lib/outbox";
import { discardEntry, retryEntry } from "~/lib/outbox-sender";
import { useSession } from "~/lib/session";

/** An action the server refused (outbox-tray.tsx): what it was, the server's reason, "Try again" and "Discard". */
export default function FailedEntry({ entry }: { entry: OutboxEntry }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const what = {
    like: t("Your like"),
    unlike: t("Taking back your like"),
    bookmark: t("Your bookmark"),
    unbookmark: t("Removing your bookmark"),
    comment: t("Your comment"),
    message: t("Your message"),
  }[entry.action.kind];
  return (
    <div
      role="alert"
      data-testid="outbox-failed"
      className="flex flex-wrap items-center gap-2 text-red-800 dark:text-red-200"
    >
      <p className="min-w-0 flex-1">
        {t("{{what}} could not be sent: {{reason}}", { what, reason: entry.reason ?? "" })}
      </p>
      <button type="button" className="btn-secondary text-sm" onClick={() => void retryEntry(api, entry.id)}>
        {t("Try again")}
      </button>
      <button type="button" className="btn-secondary text-sm" onClick={() => void discardEntry(entry.id)}>
        {t("Discard")}
      </button>
    </div>
  );
}
