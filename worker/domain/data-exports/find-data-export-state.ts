import type { DataExportState } from "@shared/contracts/data-exports";
import { isoNow } from "../shared/time";
import { REQUEST_INTERVAL_MS } from "./data-export-rules";
import { DATA_EXPORT_COLUMNS, presentDataExport, type DataExportRow } from "./present-data-export";

/** The latest export the person asked for; ownership is part of the query. */
export const latestDataExportOf = (db: D1Database, userId: number) =>
  db
    .prepare(`SELECT ${DATA_EXPORT_COLUMNS} FROM data_exports e WHERE e.user_id = ? ORDER BY e.id DESC LIMIT 1`)
    .bind(userId)
    .first<DataExportRow>();

/**
 * When the person may ask again: never while one is preparing (null would mislead, so the end of the wait is the
 * day after it was asked), a day after the last one that did not fail, else now (null).
 */
function nextRequestAtOf(latest: DataExportRow | null): string | null {
  if (!latest || latest.status === "failed") return null;
  const next = new Date(Date.parse(latest.created_at) + REQUEST_INTERVAL_MS).toISOString();
  return latest.status === "preparing" || next > isoNow() ? next : null;
}

/** Settings → Privacy and data: the latest export and when a new one may be asked for. */
export async function findDataExportState(db: D1Database, userId: number): Promise<DataExportState> {
  const latest = await latestDataExportOf(db, userId);
  return {
    dataExport: latest ? presentDataExport(latest, isoNow()) : null,
    nextRequestAt: nextRequestAtOf(latest),
  };
}
