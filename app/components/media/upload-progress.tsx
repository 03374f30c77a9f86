import { useTranslation } from "react-i18next";

/** How far an upload has gone: a labelled progress bar (0..1), announced to screen readers. */
export function UploadProgress({ value, label }: { value: number; label?: string }) {
  const { t } = useTranslation();
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  const name = label ?? t("Uploading…");
  return (
    <div className="space-y-1">
      <div className="flex justify-between text-xs text-slate-600 dark:text-slate-300">
        <span>{name}</span>
        <span aria-hidden="true">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={name}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div className="h-full rounded-full bg-sky-600 transition-[width] dark:bg-sky-400" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
