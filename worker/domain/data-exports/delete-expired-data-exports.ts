import { nowMs } from "@shared/clock";
import type { Env } from "../../env";
import { isoNow } from "../shared/time";
import { failDataExport } from "./build-data-export";
import { PREPARING_TIMEOUT_MS } from "./data-export-rules";

/** R2 deletes up to 1,000 keys in one call; a run takes one batch and the next minute's the rest. */
const BATCH = 1000;

/**
 * The cron's part: ZIPs whose week is over are deleted from R2 and their rows marked expired (kept, so that Settings
 * can say so); exports stuck in preparation past PREPARING_TIMEOUT_MS (their queue message gave up) are failed.
 */
export async function deleteExpiredDataExports(env: Pick<Env, "DB" | "MEDIA">) {
  const { results: due } = await env.DB.prepare(
    "SELECT id, object_key FROM data_exports WHERE status = 'ready' AND expires_at <= ? ORDER BY expires_at LIMIT ?",
  )
    .bind(isoNow(), BATCH)
    .all<{ id: number; object_key: string }>();
  if (due.length > 0) {
    await env.MEDIA.delete(due.map((row) => row.object_key));
    await env.DB.prepare(
      "UPDATE data_exports SET status = 'expired' WHERE status = 'ready' AND id IN (SELECT value FROM json_each(?))",
    )
      .bind(JSON.stringify(due.map((row) => row.id)))
      .run();
  }
  const { results: stuck } = await env.DB.prepare(
    "SELECT id FROM data_exports WHERE status = 'preparing' AND created_at <= ? LIMIT ?",
  )
    .bind(new Date(nowMs() - PREPARING_TIMEOUT_MS).toISOString(), BATCH)
    .all<{ id: number }>();
  for (const { id } of stuck) await failDataExport(env, id);
  return { expired: due.length, failed: stuck.length };
}
