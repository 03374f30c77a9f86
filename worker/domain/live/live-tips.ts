import type { LiveTipLine } from "@shared/live-events";
import { liveAudienceSql } from "./audience";
import { isoNow } from "../shared/time";

/** A tip paid during a stream, as its LiveRoom shows it, with the stream's total; null if it is no live tip. */
export async function liveTipOf(
  db: D1Database,
  paymentId: number,
): Promise<{ line: LiveTipLine; tipsCents: number } | null> {
  const row = await db
    .prepare(
      `SELECT p.id, p.amount_cents, p.note, p.created_at, u.id AS user_id, u.username, u.name, ls.tips_cents
       FROM payments p JOIN users u ON u.id = p.user_id JOIN live_streams ls ON ls.id = p.live_stream_id
       WHERE p.id = ? AND p.kind = 'live_tip' AND p.status = 'succeeded'`,
    )
    .bind(paymentId)
    .first<{
      id: number;
      amount_cents: number;
      note: string | null;
      created_at: string;
      user_id: number;
      username: string;
      name: string;
      tips_cents: number;
    }>();
  if (!row) return null;
  return {
    line: {
      id: row.id,
      user: { id: row.user_id, username: row.username, name: row.name },
      amountCents: row.amount_cents,
      note: row.note,
      at: row.created_at,
    },
    tipsCents: row.tips_cents,
  };
}

/**
 * Who hears that a creator went live: followers and live subscribers, not blocked either way, most recent
 * followers first, at most `limit` (the rest find it on /live and in their notifications).
 */
export async function liveAudienceToTell(db: D1Database, creatorId: number, limit: number): Promise<number[]> {
  const { results } = await db
    .prepare(`SELECT user_id FROM (${liveAudienceSql("?1", "?2")}) ORDER BY since DESC LIMIT ?3`)
    .bind(creatorId, isoNow(), limit)
    .all<{ user_id: number }>();
  return results.map((row) => row.user_id);
}
