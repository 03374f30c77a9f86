import { useTranslation } from "react-i18next";
import type { OutboxEntry } from "~/lib/outbox";
import { flushOutbox } from "~/lib/outbox-sender";
import { editOutbox } from "~/lib/outbox-store";
import { useSession } from "~/lib/session";
import type { ApiClient } from "~/lib/api";

/** A failed entry, sent again. */
async function retryEntry(client: ApiClient, id: string): Promise<void> {
  await editOutbox((entries) =>
    entries.map((entry) => (entry.id === id ? { ...entry, status: "pending", reason: null } : entry)),
  );
  await flushOutbox(client);
}

/** A failed entry, given up. */
const discardEntry = (id: string) => editOutbox((entries) => entries.filter((entry) => entry.id !== id));

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
