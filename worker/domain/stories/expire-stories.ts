import type { Env } from "../../env";
import { isoNow } from "../shared/time";

/** Stories deleted per cron run, oldest first; the next run takes the rest. */
const BATCH = 100;

/**
 * Deletes the stories past their 24 hours that no highlight keeps. Their files stay in the creator's vault
 * (docs/decisions/vault.md), free to be used again.
 */
export async function expireStories(env: Env): Promise<number> {
  const { results } = await env.DB.prepare(
    `DELETE FROM stories WHERE id IN (
       SELECT id FROM stories WHERE highlight_id IS NULL AND expires_at <= ? ORDER BY expires_at LIMIT ${BATCH})
     RETURNING id`,
  )
    .bind(isoNow())
    .all<{ id: number }>();
  return results.length;
}
