import { z } from "zod";
import type { EffectsContext } from "../context";
import { messageStatements } from "../messages/send-message";
import { visibleMemberSql } from "../policies/members";
import { isoNow } from "../shared/time";
import type { MassMessageJob } from "./begin-mass-message";
import type { MassMessageRow } from "./mass-message-rows";

/** Recipients per batch; each becomes one D1 batch of three or four statements per recipient. */
const MASS_BATCH_SIZE = 50;

/** The Queue message's body, checked: anything else on the queue is dropped. */
export const MassMessageJobSchema = z.object({ massMessageId: z.number().int().positive() });

/** The client id of one delivered copy: one copy per fan, whatever happens (messages' unique client ids). */
const copyClientId = (massMessageId: number, recipientId: number) => `mass-${massMessageId}-${recipientId}`;

/**
 * One batch of a mass message (the Queue consumer's work): the next MASS_BATCH_SIZE of its recipients get their
 * conversation (made when missing) and their copy, and leave its recipients, in ONE D1 batch; a fan blocked or
 * suspended since it started leaves without a copy. So a batch retried after it committed finds those fans gone,
 * and two runs of one batch at once collide on the copies' unique client ids: the second fails, is retried and
 * goes on with the next fans. Never twice to one fan. The recipients' user channels are told once the batch is in
 * (an UpdatesChanged: their badge and conversation list catch up at once). Returns the next job, or null when
 * none are left.
 */
export async function deliverMassMessageBatch(
  ctx: Pick<EffectsContext, "db" | "publish">,
  job: MassMessageJob,
): Promise<MassMessageJob | null> {
  const { db } = ctx;
  const mass = await db
    .prepare("SELECT * FROM mass_messages WHERE id = ?")
    .bind(job.massMessageId)
    .first<MassMessageRow>();
  if (!mass || mass.status !== "sending") return null;
  const { results: fans } = await db
    .prepare(
      `SELECT r.fan_id AS fan, (${visibleMemberSql("u")}) AS reachable
       FROM mass_message_recipients r JOIN users u ON u.id = r.fan_id
       WHERE r.mass_message_id = ?2 ORDER BY r.fan_id LIMIT ?3`,
    )
    .bind(mass.sender_id, mass.id, MASS_BATCH_SIZE)
    .all<{ fan: number; reachable: number }>();
  const reachable = fans.filter((row) => row.reachable === 1).map((row) => row.fan);
  const now = isoNow();
  const pairs = reachable.map((fan) => (fan < mass.sender_id ? [fan, mass.sender_id] : [mass.sender_id, fan]));
  let conversations: { id: number; fan: number }[] = [];
  if (pairs.length > 0) {
    const [, , found] = await db.batch<{ id: number; fan: number }>([
      db
        .prepare(
          `INSERT INTO conversations (user_low, user_high, created_at)
           SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?2 FROM json_each(?1) WHERE true
           ON CONFLICT (user_low, user_high) DO NOTHING`,
        )
        .bind(JSON.stringify(pairs), now),
      db
        .prepare(
          `INSERT INTO conversation_members (conversation_id, user_id)
           SELECT c.id, member.value FROM json_each(?1) pair
           JOIN conversations c ON c.user_low = json_extract(pair.value, '$[0]') AND c.user_high = json_extract(pair.value, '$[1]')
           JOIN json_each(pair.value) member
           WHERE true ON CONFLICT DO NOTHING`,
        )
        .bind(JSON.stringify(pairs)),
      db
        .prepare(
          `SELECT c.id, CASE WHEN c.user_low = ?2 THEN c.user_high ELSE c.user_low END AS fan
           FROM json_each(?1) pair JOIN conversations c ON c.user_low = json_extract(pair.value, '$[0]') AND c.user_high = json_extract(pair.value, '$[1]')`,
        )
        .bind(JSON.stringify(pairs), mass.sender_id),
    ]);
    conversations = found!.results;
  }
  const mediaIds = JSON.parse(mass.media_ids) as number[];
  await db.batch([
    ...conversations.flatMap((c) =>
      messageStatements(db, {
        conversationId: c.id,
        senderId: mass.sender_id,
        recipientId: c.fan,
        clientId: copyClientId(mass.id, c.fan),
        text: mass.text,
        priceCents: mass.price_cents,
        paidCents: 0,
        mediaIds,
        massMessageId: mass.id,
        at: now,
      }),
    ),
    db
      .prepare(
        "DELETE FROM mass_message_recipients WHERE mass_message_id = ?1 AND fan_id IN (SELECT value FROM json_each(?2))",
      )
      .bind(mass.id, JSON.stringify(fans.map((row) => row.fan))),
    db
      .prepare(
        `UPDATE mass_messages SET delivered = delivered + ?2,
           status = CASE WHEN EXISTS (SELECT 1 FROM mass_message_recipients r WHERE r.mass_message_id = ?1) THEN status ELSE 'sent' END
         WHERE id = ?1`,
      )
      .bind(mass.id, conversations.length),
  ]);
  if (conversations.length > 0) ctx.publish({ type: "UpdatesChanged", userIds: conversations.map((c) => c.fan) });
  return fans.length < MASS_BATCH_SIZE ? null : { massMessageId: mass.id };
}
