import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { DataExportState, DataExportView } from "@shared/contracts/data-exports";
import { LocalTime } from "~/components/local-time";
import { Notice } from "~/components/notice";
import { IntentForm } from "~/components/profile/intent-form";
import { useFormFetcher } from "~/components/use-form-fetcher";

const MEBIBYTE = 1024 * 1024;

/** What became of an export: being prepared, downloadable until a date (with the link), failed or expired. */
export function DataExportStatus({ dataExport }: { dataExport: DataExportView }) {
  const { t } = useTranslation();
  if (dataExport.status === "preparing")
    return <Notice tone="info">{t("We are preparing your data. We will email you when it is ready.")}</Notice>;
  if (dataExport.status === "failed")
    return <Notice tone="error">{t("We could not prepare your data. Please ask again.")}</Notice>;
  if (dataExport.status === "expired")
    return <Notice tone="info">{t("Your last copy of your data has expired. You can ask for a new one.")}</Notice>;
  const size = Math.max(0.1, (dataExport.sizeBytes ?? 0) / MEBIBYTE).toFixed(1);
  return (
    <Notice tone="success">
      <span className="block">
        {t("Your data is ready. You can download it until")} <LocalTime iso={dataExport.expiresAt!} />
      </span>
      {/* A file, not a page: the browser downloads it (a signed-in request of the owner). */}
      <a href={dataExport.downloadPath!} download className="link mt-2 inline-block font-semibold">
        {t("Download the ZIP ({{size}} MB)", { size })}
      </a>
    </Notice>
  );
}

/**
 * Settings → Privacy and data → Download my data: asks for a ZIP of everything the person has here, built in the
 * background and mailed as a link for 7 days; shows the last one's state and when a new one may be asked for.
 */
export function ExportSettings() {
  const { t } = useTranslation();
  const { dataExport: state } = useLoaderData<{ dataExport: DataExportState | null }>();
  const { fetcher, container, result } = useFormFetcher();
  if (!state) return null;
  const { dataExport, nextRequestAt } = state;
  const waiting = dataExport?.status === "preparing" || nextRequestAt !== null;
  return (
    <section aria-labelledby="data-export" className="max-w-lg space-y-3" ref={container}>
      <h3 id="data-export" className="font-semibold">
        {t("Download my data")}
      </h3>
      <p className="text-slate-600 dark:text-slate-400">
        {t(
          "One ZIP file with your profile, posts, comments, messages, subscriptions, payments and your photos and videos. We email you a link when it is ready; it works for 7 days.",
        )}
      </p>
      {result && !result.ok ? <Notice tone="error">{result.message}</Notice> : null}
      {dataExport ? <DataExportStatus dataExport={dataExport} /> : null}
      <IntentForm fetcher={fetcher} intent="export-request" className="space-y-2">
        <button type="submit" className="btn-primary w-auto" disabled={waiting || fetcher.state !== "idle"}>
          {t("Download my data")}
        </button>
        {nextRequestAt && dataExport?.status !== "preparing" ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t("You can ask for a new copy once a day, from")} <LocalTime iso={nextRequestAt} />
          </p>
        ) : null}
      </IntentForm>
    </section>
  );
}
