import { lazy, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { OFFLINE_STORAGE_REFUSED, offlineStorageRefused } from "~/lib/offline-copies";
import { sendOutboxSoon, useOutboxEntries } from "~/lib/outbox";
import { outboxNetworkBack, outboxRetryDelay } from "~/lib/outbox-sender";
import { onNetworkAnswer } from "~/lib/network-answers";
import { useSession } from "~/lib/session";
import { UnlessLoadFails } from "~/components/unless-load-fails";

/**
 * What the server refused, with "Try again" and "Discard" (outbox-failed-entry.tsx): loaded only when an entry
 * failed, which takes an answer of the server, so the network was there; the pending notice never waits for it.
 */
const FailedEntry = lazy(() => import("~/components/outbox-failed-entry"));

/** The service worker's Background Sync asks open pages to send (app/sw/service-worker.ts). */
const FLUSH_OUTBOX = "FLUSH_OUTBOX";

/**
 * The outbox's sender and tray (app/lib/outbox.ts), once per signed-in page: it sends what waits when the page
 * starts, when the browser is back online, when the tab is shown, when Background Sync says so, as soon as the
 * server answers anything (network-answers.ts: the browser may never have noticed the network was gone), and
 * while something waits after 1, 2, 4, 8 s, then every 15 s (outboxRetryDelay). The server's answers and `online`
 * also give up a request the round still waits on, sent into the dead network (outboxNetworkBack). It shows what
 * waits and what the server refused, with the reason, "Try again" and "Discard".
 */
export function OutboxTray() {
  const { t } = useTranslation();
  const { api } = useSession();
  const entries = useOutboxEntries();
  const pending = entries.filter((entry) => entry.status === "pending").length;
  const failed = entries.filter((entry) => entry.status === "failed");
  // Said once per page: IndexedDB refused a copy (private mode, storage full), so nothing is kept for offline.
  const [storageOff, setStorageOff] = useState(offlineStorageRefused);
  useEffect(() => {
    const refused = () => setStorageOff(true);
    window.addEventListener(OFFLINE_STORAGE_REFUSED, refused);
    return () => window.removeEventListener(OFFLINE_STORAGE_REFUSED, refused);
  }, []);

  useEffect(() => {
    if (pending === 0) return;
    const send = () => void sendOutboxSoon(api);
    send();
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout>;
    const retryLater = () => {
      timer = setTimeout(() => {
        send();
        retryLater();
      }, outboxRetryDelay(attempt++));
    };
    retryLater();
    // Evidence that the network is back, unlike a timed try or the tab being shown.
    const back = () => void outboxNetworkBack(api);
    const stopListening = onNetworkAnswer((signal) => void outboxNetworkBack(api, signal));
    const whenShown = () => document.visibilityState === "visible" && send();
    const fromWorker = (event: MessageEvent) =>
      (event.data as { type?: unknown } | null)?.type === FLUSH_OUTBOX && send();
    window.addEventListener("online", back);
    document.addEventListener("visibilitychange", whenShown);
    navigator.serviceWorker?.addEventListener("message", fromWorker);
    return () => {
      clearTimeout(timer);
      stopListening();
      window.removeEventListener("online", back);
      document.removeEventListener("visibilitychange", whenShown);
      navigator.serviceWorker?.removeEventListener("message", fromWorker);
    };
  }, [pending, api]);

  const storageNotice = storageOff ? (
    <p
      role="status"
      data-testid="offline-storage-off"
      className="flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-4 py-2 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <span className="flex-1">
        {t("Offline reading is off: this browser does not let Fanclub keep anything on this device.")}
      </span>
      <button type="button" className="link text-sm" onClick={() => setStorageOff(false)}>
        {t("Close")}
      </button>
    </p>
  ) : null;
  if (pending === 0 && failed.length === 0) return storageNotice;
  return (
    <section
      aria-label={t("Waiting to be sent")}
      data-testid="outbox-tray"
      className="space-y-2 border-b border-slate-200 bg-slate-50 px-4 py-2 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      {storageNotice}
      {pending > 0 ? (
        <p role="status" data-testid="outbox-pending">
          {pending === 1
            ? t("1 action waits for the network.")
            : t("{{count}} actions wait for the network.", { count: pending })}
        </p>
      ) : null}
      {failed.length > 0 ? (
        <UnlessLoadFails>
          {failed.map((entry) => (
            <FailedEntry key={entry.id} entry={entry} />
          ))}
        </UnlessLoadFails>
      ) : null}
    </section>
  );
}
