import type { Env } from "../../env";
import { discardMediaByIds } from "../media/discard-media";
import { isoNow } from "../shared/time";

/** Stories deleted per cron run, oldest first; the next run takes the rest. */
const BATCH = 100;

/**
 * Deletes the stories past their 24 hours that no highlight keeps, then their files (and posters) in R2.
 * DELETE … RETURNING claims each row for exactly one run: two overlapping runs never delete one story's file twice.
 * Should the Worker stop between the two steps, the file is left in no story, post or message, and the abandoned
 * uploads job deletes it on its next run.
 */
export async function expireStories(env: Env): Promise<number> {
  const { results } = await env.DB.prepare(
    `DELETE FROM stories WHERE id IN (
       SELECT id FROM stories WHERE highlight_id IS NULL AND expires_at <= ? ORDER BY expires_at LIMIT ${BATCH})
     RETURNING media_id`,
  )
    .bind(isoNow())
    .all<{ media_id: number }>();
  await discardMediaByIds(
    env,
    results.map((row) => row.media_id),
  );
  return results.length;
}
