import type { MassMessageView } from "@shared/contracts/messages";
import { message } from "@shared/messages";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { requireCreator } from "../policies/mass-messages";
import { AppError } from "../shared/errors";
import { findOwnMassMessage } from "./mass-message-rows";

const NOT_SENT_YET = message("Only a mass message that has been sent can be unsent.");

/** A copy `m` of mass message ?1 that its fan has not bought: what an unsend removes. */
const UNBOUGHT = "m.mass_message_id = ?1 AND NOT EXISTS (SELECT 1 FROM message_purchases p WHERE p.message_id = m.id)";
/** Every statement runs only while the mass message is 'sent': a second unsend, racing or late, changes nothing. */
const WHILE_SENT = "EXISTS (SELECT 1 FROM mass_messages WHERE id = ?1 AND status = 'sent')";
/** The fan of the copy `m` (the member who is not its sender), from its conversation `c`. */
const FAN_OF_COPY = "CASE WHEN c.user_low = m.sender_id THEN c.user_high ELSE c.user_low END";
/** The newest message of conversation `owner` (a column) that is not a copy of ?1. */
const latestOtherSql = (column: "id" | "created_at", owner: string) =>
  `(SELECT m2.${column} FROM messages m2 WHERE m2.conversation_id = ${owner}
      AND (m2.mass_message_id IS NULL OR m2.mass_message_id <> ?1) ORDER BY m2.seq DESC LIMIT 1)`;
/** Conversations whose last message is a copy about to go. */
const LAST_IS_COPY = `SELECT m.conversation_id FROM messages m WHERE ${UNBOUGHT}
  AND m.id = (SELECT c.last_message_id FROM conversations c WHERE c.id = m.conversation_id)`;

/**
 * Takes a sent mass message back: every copy its fan has not bought leaves their chat (a copy bought stays), in one
 * D1 batch of set-wise statements, so even 10,000 copies are one round trip. Each chat stays consistent: the
 * fan's unread count drops if they had not read it, and where the copy was the last message the previous message
 * becomes the last (the conversation leaves the list when nothing else was said). The fans' user channels are told.
 */
export async function unsendMassMessage(
  ctx: Pick<DomainContext, "db" | "publish">,
  creator: UserRow,
  id: number,
): Promise<MassMessageView> {
  const { db } = ctx;
  requireCreator(creator);
  const current = await findOwnMassMessage(db, creator.id, id);
  if (current.status === "unsent") return current;
  if (current.status !== "sent") throw new AppError("conflict", NOT_SENT_YET);
  const [fans] = await db.batch<{ fan: number }>([
    db
      .prepare(
        `SELECT ${FAN_OF_COPY} AS fan FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE ${UNBOUGHT}`,
      )
      .bind(id),
    db
      .prepare(
        `UPDATE conversation_members SET unread_count = MAX(unread_count - 1, 0)
         WHERE (conversation_id, user_id) IN (SELECT m.conversation_id, ${FAN_OF_COPY} FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE ${UNBOUGHT})
           AND last_read_seq < (SELECT m.seq FROM messages m WHERE m.mass_message_id = ?1 AND m.conversation_id = conversation_members.conversation_id)
           AND ${WHILE_SENT}`,
      )
      .bind(id),
    db
      .prepare(
        `UPDATE conversation_members SET activity_at = ${latestOtherSql("created_at", "conversation_members.conversation_id")}
         WHERE conversation_id IN (${LAST_IS_COPY}) AND ${WHILE_SENT}`,
      )
      .bind(id),
    db
      .prepare(
        `UPDATE conversations SET last_message_id = ${latestOtherSql("id", "conversations.id")},
           last_message_at = ${latestOtherSql("created_at", "conversations.id")}
         WHERE id IN (${LAST_IS_COPY}) AND ${WHILE_SENT}`,
      )
      .bind(id),
    db
      .prepare(`DELETE FROM messages WHERE id IN (SELECT m.id FROM messages m WHERE ${UNBOUGHT}) AND ${WHILE_SENT}`)
      .bind(id),
    db.prepare("UPDATE mass_messages SET status = 'unsent' WHERE id = ?1 AND status = 'sent'").bind(id),
  ]);
  const userIds = fans!.results.map((row) => row.fan);
  if (userIds.length > 0) ctx.publish({ type: "UpdatesChanged", userIds });
  return findOwnMassMessage(db, creator.id, id);
}
