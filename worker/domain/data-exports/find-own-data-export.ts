import { DATA_EXPORT_COLUMNS, type DataExportRow } from "./present-data-export";

/** One export, only if it is the viewer's: anyone else's is "not found", exactly like an id that does not exist. */
export const findOwnDataExport = (db: D1Database, userId: number, exportId: number) =>
  db
    .prepare(`SELECT ${DATA_EXPORT_COLUMNS} FROM data_exports e WHERE e.id = ? AND e.user_id = ?`)
    .bind(exportId, userId)
    .first<DataExportRow>();
