import type { Env } from "../../env";
import { isoNow } from "../shared/time";
import {
  availableOf,
  ledgerRefusal,
  newTransferRef,
  pendingOf,
  transferIdSql,
  transferStatements,
  type Sql,
} from "./ledger";

/** Creators handled per cron run; a larger backlog is finished by the next runs. */
const CREATORS_PER_RUN = 100;

/**
 * The cron job that frees earnings 7 business days after the payment (spec §9): per creator, one transfer moves
 * the net of every due earning from earnings_pending to earnings_available, and stamps those earnings with it in
 * the same batch. Both legs and the stamp read the same due set inside the transaction, so the amount moved is
 * exactly what is stamped; a concurrent run finds nothing left to move and its batch aborts harmlessly. An
 * earning held by an open dispute (reverse-top-up.ts) waits until the dispute is closed.
 */
export async function releaseDueEarnings(env: Pick<Env, "DB">): Promise<{ creators: number; cents: number }> {
  const db = env.DB;
  const now = isoNow();
  const { results: due } = await db
    .prepare(
      `SELECT creator_id, SUM(net_cents) AS cents FROM earnings
       WHERE release_transfer_id IS NULL AND held_by_dispute_id IS NULL AND release_at <= ?1
       GROUP BY creator_id HAVING SUM(net_cents) > 0 LIMIT ?2`,
    )
    .bind(now, CREATORS_PER_RUN)
    .all<{ creator_id: number; cents: number }>();
  let creators = 0;
  let cents = 0;
  for (const { creator_id: creatorId } of due) {
    const ref = newTransferRef();
    const dueNet = (sign: "" | "-"): Sql => ({
      sql: `${sign}(SELECT SUM(net_cents) FROM earnings WHERE creator_id = ? AND release_transfer_id IS NULL AND held_by_dispute_id IS NULL AND release_at <= ?)`,
      binds: [creatorId, now],
    });
    const transferId = transferIdSql(ref);
    try {
      const results = await db.batch([
        ...transferStatements(db, {
          ref,
          kind: "release",
          createdAt: now,
          guard: { sql: `${dueNet("").sql} > 0`, binds: dueNet("").binds },
          legs: [
            { account: pendingOf(creatorId), amount: dueNet("-") },
            { account: availableOf(creatorId), amount: dueNet("") },
          ],
        }),
        db
          .prepare(
            `UPDATE earnings SET release_transfer_id = ${transferId.sql} WHERE creator_id = ? AND release_transfer_id IS NULL AND held_by_dispute_id IS NULL AND release_at <= ? RETURNING net_cents`,
          )
          .bind(...transferId.binds, creatorId, now),
      ]);
      creators += 1;
      cents += (results[results.length - 1]!.results as { net_cents: number }[]).reduce(
        (sum, row) => sum + row.net_cents,
        0,
      );
    } catch (error) {
      // Another run released them first: nothing to do.
      if (ledgerRefusal(error) !== "state_changed") throw error;
    }
  }
  return { creators, cents };
}
