import type { MassMessageStatus, MassMessageView } from "@shared/contracts/messages";
import { message } from "@shared/messages";
import { AppError } from "../shared/errors";

const MASS_MESSAGE_NOT_FOUND = message("This mass message does not exist.");
export const ALREADY_GONE = message("This mass message has already gone: it can no longer be changed or cancelled.");

export interface MassMessageRow {
  id: number;
  sender_id: number;
  client_id: string;
  include_lists: string;
  exclude_lists: string;
  text: string;
  price_cents: number;
  media_ids: string;
  recipients: number;
  delivered: number;
  status: MassMessageStatus;
  send_at: string;
  created_at: string;
}

/** A row with its results, counted from its copies (the index messages_mass_message). */
export interface MassMessageResultRow extends MassMessageRow {
  read_count: number;
  unlocked: number;
  revenue_cents: number;
}

/**
 * Every column of mass message `mm` and its results: copies read by their fan (the fan's read mark has reached
 * the copy), copies bought and what they were paid.
 */
export const MASS_MESSAGE_WITH_RESULTS_SQL = `
  SELECT mm.*,
    (SELECT COUNT(*) FROM messages m JOIN conversation_members fan
       ON fan.conversation_id = m.conversation_id AND fan.user_id <> m.sender_id
     WHERE m.mass_message_id = mm.id AND fan.last_read_seq >= m.seq) AS read_count,
    (SELECT COUNT(*) FROM messages m JOIN message_purchases p ON p.message_id = m.id WHERE m.mass_message_id = mm.id) AS unlocked,
    (SELECT COALESCE(SUM(p.price_cents), 0) FROM messages m JOIN message_purchases p ON p.message_id = m.id
     WHERE m.mass_message_id = mm.id) AS revenue_cents
  FROM mass_messages mm`;

export const presentMassMessage = (row: MassMessageRow & Partial<MassMessageResultRow>): MassMessageView => ({
  id: row.id,
  include: JSON.parse(row.include_lists) as string[],
  exclude: JSON.parse(row.exclude_lists) as string[],
  text: row.text,
  priceCents: row.price_cents,
  mediaIds: JSON.parse(row.media_ids) as number[],
  status: row.status,
  sendAt: row.send_at,
  recipients: row.recipients,
  delivered: row.delivered,
  read: row.read_count ?? 0,
  unlocked: row.unlocked ?? 0,
  revenueCents: row.revenue_cents ?? 0,
  createdAt: row.created_at,
  viewer: { canEdit: row.status === "scheduled", canUnsend: row.status === "sent" },
});

/** The caller's own mass message with its results; anyone else's is "not found" (ownership is in the query). */
export async function findOwnMassMessage(db: D1Database, senderId: number, id: number): Promise<MassMessageView> {
  const row = await db
    .prepare(`${MASS_MESSAGE_WITH_RESULTS_SQL} WHERE mm.id = ?1 AND mm.sender_id = ?2`)
    .bind(id, senderId)
    .first<MassMessageResultRow>();
  if (!row) throw new AppError("not_found", MASS_MESSAGE_NOT_FOUND);
  return presentMassMessage(row);
}
