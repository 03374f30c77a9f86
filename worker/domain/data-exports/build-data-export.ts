import type { Env } from "../../env";
import { translatorFor } from "../i18n";
import type { Mailer } from "../mail/mailer";
import { dataExportReadyMail } from "../mail/templates";
import { DAY, isoIn, isoNow } from "../shared/time";
import { DOWNLOAD_DAYS } from "./data-export-rules";
import { exportFilesOf } from "./export-files";
import type { DataExportJob } from "./jobs";
import { dataExportPagePath } from "./present-data-export";
import { writeZipToR2 } from "./zip-to-r2";

interface ExportToBuild {
  id: number;
  user_id: number;
  status: string;
  object_key: string;
  email: string;
  name: string;
}

/**
 * Builds the ZIP of one export in preparation, marks it ready for DOWNLOAD_DAYS and mails its owner the page that
 * downloads it. An export no longer in preparation (built by an earlier delivery of the same message, or given up)
 * is left alone: the Queue may deliver a message twice. Answers what it did, for the log.
 */
export async function buildDataExport(
  env: Pick<Env, "DB" | "MEDIA">,
  mailer: Mailer,
  job: DataExportJob,
): Promise<"built" | "skipped"> {
  const row = await env.DB.prepare(
    `SELECT e.id, e.user_id, e.status, e.object_key, u.email, u.name
     FROM data_exports e JOIN users u ON u.id = e.user_id WHERE e.id = ?`,
  )
    .bind(job.exportId)
    .first<ExportToBuild>();
  if (!row || row.status !== "preparing") return "skipped";
  const t = translatorFor(job.language);
  const sizeBytes = await writeZipToR2(env.MEDIA, row.object_key, exportFilesOf(env, row.user_id, t));
  const expiresAt = isoIn(DOWNLOAD_DAYS * DAY);
  const marked = await env.DB.prepare(
    `UPDATE data_exports SET status = 'ready', size_bytes = ?, ready_at = ?, expires_at = ?
     WHERE id = ? AND status = 'preparing'`,
  )
    .bind(sizeBytes, isoNow(), expiresAt, row.id)
    .run();
  if (marked.meta.changes === 0) {
    // Given up meanwhile (failed by the cron): its file must not outlive it.
    await env.MEDIA.delete(row.object_key);
    return "skipped";
  }
  const link = `${job.origin}${dataExportPagePath(row.id)}`;
  // The export is ready whatever the mail does: Settings shows the same link, so a mail that fails is only logged.
  await mailer
    .send(dataExportReadyMail(t, row.email, row.name, link))
    .catch((error: unknown) =>
      console.error(JSON.stringify({ dataExport: row.id, mail: "not sent", error: String(error) })),
    );
  return "built";
}

/** The Queue gave up on an export: it shows as failed (the person may ask again at once) and leaves no file. */
export async function failDataExport(env: Pick<Env, "DB" | "MEDIA">, exportId: number): Promise<void> {
  const row = await env.DB.prepare(
    "UPDATE data_exports SET status = 'failed' WHERE id = ? AND status = 'preparing' RETURNING object_key",
  )
    .bind(exportId)
    .first<{ object_key: string }>();
  if (row) await env.MEDIA.delete(row.object_key);
}
