import type { DataExportState } from "@shared/contracts/data-exports";
import { message } from "@shared/messages";
import type { DomainContext } from "../context";
import { AppError } from "../shared/errors";
import { HOUR, isoNow } from "../shared/time";
import { nowMs } from "@shared/clock";
import { REQUEST_INTERVAL_MS } from "./data-export-rules";
import { findDataExportState, latestDataExportOf } from "./find-data-export-state";
import type { EnqueueDataExport } from "./jobs";

const ALREADY_PREPARING = message("Your data is already being prepared. We will email you when it is ready.");
const ONCE_A_DAY = message("You can ask for a copy of your data once a day. Please try again in {{count}} hours.");

/**
 * Asks for a copy of the person's data: a data_exports row in preparation and a job on the Queue that builds the
 * ZIP and mails the link. At most one in preparation, and one a day (a failed one does not count). The insert
 * carries both rules in its WHERE, so two requests at once make one export.
 */
export async function requestDataExport(
  ctx: Pick<DomainContext, "db" | "origin" | "language">,
  enqueue: EnqueueDataExport,
  userId: number,
): Promise<DataExportState> {
  const { db } = ctx;
  const createdAt = isoNow();
  const since = new Date(nowMs() - REQUEST_INTERVAL_MS).toISOString();
  const created = await db
    .prepare(
      `INSERT INTO data_exports (user_id, object_key, created_at)
       SELECT ?1, ?2, ?3
       WHERE NOT EXISTS (SELECT 1 FROM data_exports WHERE user_id = ?1
                         AND (status = 'preparing' OR (status <> 'failed' AND created_at > ?4)))
       RETURNING id`,
    )
    .bind(userId, `exports/${crypto.randomUUID().replaceAll("-", "")}.zip`, createdAt, since)
    .first<{ id: number }>()
    .catch((error: unknown) => {
      // The partial unique index: another request made one between our check and insert.
      if (String(error).includes("UNIQUE constraint failed")) return null;
      throw error;
    });
  if (!created) throw await refusalOf(db, userId);
  try {
    await enqueue({ exportId: created.id, origin: ctx.origin, language: ctx.language });
  } catch (error) {
    await db.prepare("UPDATE data_exports SET status = 'failed' WHERE id = ?").bind(created.id).run();
    throw error;
  }
  return findDataExportState(db, userId);
}

async function refusalOf(db: D1Database, userId: number): Promise<AppError> {
  const latest = await latestDataExportOf(db, userId);
  if (!latest || latest.status === "preparing") return new AppError("conflict", ALREADY_PREPARING);
  const waitMs = Math.max(0, Date.parse(latest.created_at) + REQUEST_INTERVAL_MS - nowMs());
  const hours = Math.max(1, Math.ceil(waitMs / HOUR));
  return new AppError("rate_limited", ONCE_A_DAY, {}, { count: hours }, Math.ceil(waitMs / 1000));
}
