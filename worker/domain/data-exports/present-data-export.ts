import type { DataExportView } from "@shared/contracts/data-exports";

export interface DataExportRow {
  id: number;
  user_id: number;
  status: "preparing" | "ready" | "failed" | "expired";
  object_key: string;
  size_bytes: number | null;
  created_at: string;
  ready_at: string | null;
  expires_at: string | null;
}

export const DATA_EXPORT_COLUMNS =
  "e.id, e.user_id, e.status, e.object_key, e.size_bytes, e.created_at, e.ready_at, e.expires_at";

/** The page the mail links to; the ZIP itself streams from `${dataExportPagePath(id)}/download`. */
export const dataExportPagePath = (id: number) => `/account/export/${id}`;
const dataExportDownloadPath = (id: number) => `${dataExportPagePath(id)}/download`;

/**
 * The status as the person sees it at `nowIso`: a ready export whose week is over is expired at once, whether or not
 * the cron has deleted its file yet.
 */
export const statusAt = (row: DataExportRow, nowIso: string): DataExportRow["status"] =>
  row.status === "ready" && row.expires_at !== null && row.expires_at <= nowIso ? "expired" : row.status;

export function presentDataExport(row: DataExportRow, nowIso: string): DataExportView {
  const status = statusAt(row, nowIso);
  const ready = status === "ready";
  return {
    id: row.id,
    status,
    createdAt: row.created_at,
    expiresAt: ready ? row.expires_at : null,
    sizeBytes: ready ? row.size_bytes : null,
    downloadPath: ready ? dataExportDownloadPath(row.id) : null,
  };
}
