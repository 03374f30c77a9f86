/**
 * Reading payouts: a creator's history (newest first, keyset pages on payouts_of_creator), their open request,
 * and the admins' queue of requested payouts (oldest first, on payouts_queue) with the full method details.
 */
import type { Read } from "../shared/reads";
import { presentPayout, type PayoutRow, type PayoutView } from "./withdrawals";
import type { PayoutDestination, QueuedPayout } from "@shared/contracts/money";
export { type QueuedPayout };

export const PAYOUTS_PAGE_SIZE = 20;
/** The queue shows this many at a time; deciding them brings in the next ones. */
const PAYOUT_QUEUE_SIZE = 50;

export async function listPayouts(
  db: D1Database,
  creatorId: number,
  cursor: number | null,
): Promise<{ payouts: PayoutView[]; nextCursor: number | null }> {
  const { results } = await db
    .prepare("SELECT * FROM payouts WHERE creator_id = ? AND id < ? ORDER BY id DESC LIMIT ?")
    .bind(creatorId, cursor ?? Number.MAX_SAFE_INTEGER, PAYOUTS_PAGE_SIZE + 1)
    .all<PayoutRow>();
  const page = results.slice(0, PAYOUTS_PAGE_SIZE);
  return {
    payouts: page.map(presentPayout),
    nextCursor: results.length > PAYOUTS_PAGE_SIZE ? page[page.length - 1]!.id : null,
  };
}

/** The creator's request still waiting for an admin, if any (there is at most one: payouts_one_open). */
export const openPayoutRead = (db: D1Database, creatorId: number): Read<PayoutView | null> => ({
  statement: db.prepare("SELECT * FROM payouts WHERE creator_id = ? AND status = 'requested'").bind(creatorId),
  answer: (result) => {
    const row = result.results[0] as PayoutRow | undefined;
    return row ? presentPayout(row) : null;
  },
});

/** Where an admin sends the money: the method as it was when the payout was requested, unmasked. */

export async function listPayoutQueue(db: D1Database): Promise<QueuedPayout[]> {
  const { results } = await db
    .prepare(
      `SELECT p.*, u.username, u.name, u.email FROM payouts p JOIN users u ON u.id = p.creator_id
       WHERE p.status = 'requested' ORDER BY p.id LIMIT ?`,
    )
    .bind(PAYOUT_QUEUE_SIZE)
    .all<PayoutRow & { username: string; name: string; email: string }>();
  return results.map((row) => ({
    id: row.id,
    amountCents: row.amount_cents,
    createdAt: row.created_at,
    creator: { id: row.creator_id, username: row.username, name: row.name, email: row.email },
    destination: {
      kind: row.method_kind,
      ...(JSON.parse(row.method_details) as Record<string, string>),
    } as PayoutDestination,
  }));
}
