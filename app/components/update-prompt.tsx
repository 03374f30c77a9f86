import { useTranslation } from "react-i18next";

/**
 * The offer to switch to the new version of the app, or to keep the running one for now: loaded only when a new
 * version waits (service-worker.tsx).
 */
export function UpdatePrompt({ onLater, onReload }: { onLater(): void; onReload(): void }) {
  const { t } = useTranslation();
  return (
    <div className="pointer-events-auto flex w-full max-w-md flex-wrap items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-lg dark:border-slate-700 dark:bg-slate-900">
      <p className="min-w-0 flex-1">{t("A new version of Fanclub is available.")}</p>
      <div className="flex gap-2">
        <button type="button" className="btn-secondary" onClick={onLater}>
          {t("Later")}
        </button>
        <button type="button" className="btn-primary w-auto" onClick={onReload}>
          {t("Reload")}
        </button>
      </div>
    </div>
  );
}
