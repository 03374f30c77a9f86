import type { EffectsContext } from "../context";
import { isoNow } from "../shared/time";
import { audienceOf, beginStatements, type EnqueueMassMessage } from "./begin-mass-message";
import type { MassMessageRow } from "./mass-message-rows";

/** How many due mass messages one cron run starts; the rest wait for the next run, a minute later. */
const DUE_PER_RUN = 50;

/**
 * The cron's job: every scheduled mass message whose time has come starts going, EXACTLY ONCE even when runs
 * overlap: its recipients and its status change in one batch guarded by status = 'scheduled' (beginStatements),
 * so only the run whose batch comes first gets the row back and enqueues it. Returns the ids started.
 */
export async function startDueMassMessages(
  ctx: Pick<EffectsContext, "db">,
  enqueue: EnqueueMassMessage,
): Promise<number[]> {
  const { db } = ctx;
  const now = isoNow();
  const { results: due } = await db
    .prepare("SELECT * FROM mass_messages WHERE status = 'scheduled' AND send_at <= ? ORDER BY send_at LIMIT ?")
    .bind(now, DUE_PER_RUN)
    .all<MassMessageRow>();
  const started: number[] = [];
  for (const mass of due) {
    const [, begun] = await db.batch(beginStatements(db, mass.sender_id, audienceOf(mass), "?3", [mass.id], now));
    if (begun!.results.length === 0) continue;
    await enqueue({ massMessageId: mass.id });
    started.push(mass.id);
  }
  return started;
}
