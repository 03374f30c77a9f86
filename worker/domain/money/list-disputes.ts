import type { AdminDispute } from "@shared/contracts/money";

/** The tab shows this many, newest first. */
const DISPUTES_SHOWN = 100;

/**
 * The admins' list of refunds and chargebacks, newest first, with the fan and the net of the creators' earnings
 * each one holds (or took back for the platform when lost; none once won, as the hold is lifted).
 */
export async function listDisputes(db: D1Database): Promise<AdminDispute[]> {
  const { results } = await db
    .prepare(
      `SELECT d.*, u.username, u.name,
         (SELECT COALESCE(SUM(net_cents), 0) FROM earnings WHERE held_by_dispute_id = d.id) AS held_cents
       FROM disputes d JOIN users u ON u.id = d.user_id
       ORDER BY d.id DESC LIMIT ?`,
    )
    .bind(DISPUTES_SHOWN)
    .all<{
      id: number;
      kind: AdminDispute["kind"];
      status: AdminDispute["status"];
      amount_cents: number;
      owed_cents: number;
      held_cents: number;
      reason: string;
      opened_at: string;
      closed_at: string | null;
      user_id: number;
      username: string;
      name: string;
    }>();
  return results.map((row) => ({
    id: row.id,
    kind: row.kind,
    status: row.status,
    amountCents: row.amount_cents,
    owedCents: row.owed_cents,
    heldCents: row.held_cents,
    reason: row.reason,
    openedAt: row.opened_at,
    closedAt: row.closed_at,
    fan: { id: row.user_id, username: row.username, name: row.name },
  }));
}
