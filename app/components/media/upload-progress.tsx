import { useTranslation } from "react-i18next";
import type { ConversionState } from "~/lib/uploads";

/**
 * How far an upload has gone: a labelled progress bar (0..1), announced to screen readers. Once every byte is
 * sent the server still finishes the file (joins the parts, checks it, strips metadata), so 100% reads
 * "Processing…" until the upload is `done`.
 */
export function UploadProgress({ value, name, done = false }: { value: number; name?: string; done?: boolean }) {
  const { t } = useTranslation();
  const percent = done ? 100 : Math.round(Math.min(1, Math.max(0, value)) * 100);
  const label = done
    ? name
      ? t("{{name}} uploaded", { name })
      : t("Uploaded")
    : percent === 100
      ? name
        ? t("Processing {{name}}…", { name })
        : t("Processing…")
      : name
        ? t("Uploading {{name}}", { name })
        : t("Uploading…");
  return <LabelledBar label={label} percent={percent} done={done} />;
}

/**
 * How far the browser has got making a video's smaller copies (app/lib/video-renditions.ts), beside its upload's
 * bar; where it cannot make them, a plain note that the video goes as it is (not an error: it still plays).
 */
export function ConversionProgress({ state, value, name }: { state: ConversionState; value: number; name: string }) {
  const { t } = useTranslation();
  if (state === "unsupported")
    return (
      <p role="status" className="text-xs text-slate-600 dark:text-slate-300">
        {t("This video will play as it is.")}
      </p>
    );
  const done = state === "done";
  const percent = done ? 100 : Math.round(Math.min(1, Math.max(0, value)) * 100);
  const label = done ? t("{{name}} converted", { name }) : t("Converting {{name}}", { name });
  return <LabelledBar label={label} percent={percent} done={done} />;
}

function LabelledBar({ label, percent, done }: { label: string; percent: number; done: boolean }) {
  return (
    <div className="space-y-1">
      <div className="flex justify-between gap-2 text-xs text-slate-600 dark:text-slate-300">
        <span dir="auto" className="truncate-text">
          {label}
        </span>
        {percent < 100 ? <span aria-hidden="true">{percent}%</span> : null}
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div
          className={`h-full rounded-full transition-[width] ${done ? "bg-emerald-600 dark:bg-emerald-400" : "bg-sky-600 dark:bg-sky-400"}`}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
