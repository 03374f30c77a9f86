import { z } from "zod";
import { type MassMessageAudience, type MassMessageView } from "@shared/contracts/messages";
import type { UserRow } from "../accounts/users";
import type { DomainContext, EffectsContext } from "../context";
import { IDEMPOTENCY_KEY_REUSED } from "../money/rules";
import { LIVE_SUBSCRIPTION_SQL, visibleMemberSql } from "../policies/members";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import type { SendMassMessageInput } from "@shared/contracts/message-bodies";
import { assertSendable, checkMessageInput, messageStatements } from "./send-message";

const ONLY_CREATORS_MASS_MESSAGE = message("Only creators can send a message to all their fans.");
const NO_RECIPIENTS = message("Nobody to send it to yet: this audience is empty.");

/** Recipients per queue message; each becomes one D1 batch of four or five statements per recipient. */
const MASS_BATCH_SIZE = 50;

/** What the Queue carries: which mass message, and the last recipient id already done (keyset). */
export interface MassMessageJob {
  massMessageId: number;
  after: number;
}

/** Enqueues a job; the Worker passes its Queue binding, tests a recorder. */
export type EnqueueMassMessage = (job: MassMessageJob) => Promise<void>;

interface MassMessageRow {
  id: number;
  sender_id: number;
  client_id: string;
  audience: MassMessageAudience;
  text: string;
  price_cents: number;
  media_ids: string;
  recipients: number;
  delivered: number;
  status: "sending" | "sent";
  created_at: string;
}

const present = (row: MassMessageRow): MassMessageView => ({
  id: row.id,
  audience: row.audience,
  text: row.text,
  priceCents: row.price_cents,
  recipients: row.recipients,
  delivered: row.delivered,
  status: row.status,
  createdAt: row.created_at,
});

/**
 * The creator's fans in `audience` (?1 creator, ?2 now, ?3 audience) after id ?4, by id: followers and live
 * subscribers, without suspended accounts or a block either way. Driven by the follows and subscriptions indexes,
 * never by a scan of users. Built once, outside any request, so no place applies: geo-blocking hides a creator's
 * content, not their inbox.
 */
const RECIPIENTS_SQL = `
  SELECT fan FROM (
    SELECT f.follower_id AS fan FROM follows f WHERE f.creator_id = ?1 AND ?3 IN ('followers', 'both') AND f.follower_id > ?4
    UNION
    SELECT s.fan_id FROM subscriptions s WHERE s.creator_id = ?1 AND ?3 IN ('subscribers', 'both') AND ${LIVE_SUBSCRIPTION_SQL} AND s.fan_id > ?4
  ) JOIN users u ON u.id = fan
  WHERE ${visibleMemberSql("u")}`;

/**
 * A creator's message to all their subscribers, followers or both. The request stores the mass message with its
 * recipient count and enqueues the first batch; the Queue consumer (deliverMassMessageBatch) writes the messages
 * in batches and counts them, so no request ever writes thousands of rows. The client id makes it idempotent.
 */
export async function startMassMessage(
  ctx: Pick<DomainContext, "db">,
  enqueue: EnqueueMassMessage,
  creator: UserRow,
  input: SendMassMessageInput,
): Promise<MassMessageView> {
  const { db } = ctx;
  if (creator.role !== "creator") throw new AppError("forbidden", ONLY_CREATORS_MASS_MESSAGE);
  const earlier = await db
    .prepare("SELECT * FROM mass_messages WHERE sender_id = ? AND client_id = ?")
    .bind(creator.id, input.clientId)
    .first<MassMessageRow>();
  if (earlier) {
    if (earlier.text !== input.text.trim() || earlier.audience !== input.audience)
      throw new AppError("conflict", IDEMPOTENCY_KEY_REUSED);
    return present(earlier);
  }
  const { text } = checkMessageInput(input, creator);
  await assertSendable(db, creator.id, input.mediaIds);
  const now = isoNow();
  const count = await db
    .prepare(`SELECT COUNT(*) AS n FROM (${RECIPIENTS_SQL})`)
    .bind(creator.id, now, input.audience, 0)
    .first<{ n: number }>();
  if (!count || count.n === 0) throw new AppError("validation", NO_RECIPIENTS, { audience: [NO_RECIPIENTS] });
  const row = await db
    .prepare(
      `INSERT INTO mass_messages (sender_id, client_id, audience, text, price_cents, media_ids, recipients, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sender_id, client_id) DO NOTHING RETURNING *`,
    )
    .bind(
      creator.id,
      input.clientId,
      input.audience,
      text,
      input.priceCents,
      JSON.stringify(input.mediaIds),
      count.n,
      now,
    )
    .first<MassMessageRow>();
  // A resend racing the first: the first one is the answer, and only it enqueues.
  if (!row)
    return present(
      (await db
        .prepare("SELECT * FROM mass_messages WHERE sender_id = ? AND client_id = ?")
        .bind(creator.id, input.clientId)
        .first<MassMessageRow>())!,
    );
  await enqueue({ massMessageId: row.id, after: 0 });
  return present(row);
}

/** The creator's mass messages, newest first, with their progress. */
export async function listMassMessages(db: D1Database, creatorId: number): Promise<MassMessageView[]> {
  const { results } = await db
    .prepare("SELECT * FROM mass_messages WHERE sender_id = ? ORDER BY id DESC LIMIT 20")
    .bind(creatorId)
    .all<MassMessageRow>();
  return results.map(present);
}

/** The client id of one delivered copy: a redelivered batch finds it and writes nothing twice. */
const copyClientId = (massMessageId: number, recipientId: number) => `mass-${massMessageId}-${recipientId}`;

/**
 * One batch of a mass message (the Queue consumer's work): the next MASS_BATCH_SIZE recipients after `job.after`
 * get their conversation (made when missing) and their copy, in one D1 batch, and the delivered count moves on.
 * Returns the next job, or null when every recipient has it. Safe to run twice for one job: copies already
 * written are skipped by their client ids. Nothing is pushed: the recipients' badges catch up with their
 * 30-second poll, so a mass message to 10,000 fans never wakes 10,000 user channels (docs/decisions/mass-messages.md).
 */
export async function deliverMassMessageBatch(
  ctx: Pick<EffectsContext, "db">,
  job: MassMessageJob,
): Promise<MassMessageJob | null> {
  const { db } = ctx;
  const mass = await db
    .prepare("SELECT * FROM mass_messages WHERE id = ?")
    .bind(job.massMessageId)
    .first<MassMessageRow>();
  if (!mass || mass.status === "sent") return null;
  const now = isoNow();
  const { results } = await db
    .prepare(`${RECIPIENTS_SQL} ORDER BY fan LIMIT ?5`)
    .bind(mass.sender_id, now, mass.audience, job.after, MASS_BATCH_SIZE)
    .all<{ fan: number }>();
  const recipients = results.map((r) => r.fan);
  if (recipients.length > 0) {
    const pairs = recipients.map((fan) => (fan < mass.sender_id ? [fan, mass.sender_id] : [mass.sender_id, fan]));
    await db.batch([
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
    ]);
    const { results: conversations } = await db
      .prepare(
        `SELECT c.id, CASE WHEN c.user_low = ?2 THEN c.user_high ELSE c.user_low END AS fan,
                EXISTS (SELECT 1 FROM messages m WHERE m.sender_id = ?2 AND m.client_id = 'mass-' || ?3 || '-' || (CASE WHEN c.user_low = ?2 THEN c.user_high ELSE c.user_low END)) AS done
         FROM json_each(?1) pair JOIN conversations c ON c.user_low = json_extract(pair.value, '$[0]') AND c.user_high = json_extract(pair.value, '$[1]')`,
      )
      .bind(JSON.stringify(pairs), mass.sender_id, mass.id)
      .all<{ id: number; fan: number; done: number }>();
    const mediaIds = JSON.parse(mass.media_ids) as number[];
    const todo = conversations.filter((c) => c.done !== 1);
    if (todo.length > 0) {
      await db.batch([
        ...todo.flatMap((c) =>
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
        db.prepare("UPDATE mass_messages SET delivered = delivered + ? WHERE id = ?").bind(todo.length, mass.id),
      ]);
    }
  }
  if (recipients.length < MASS_BATCH_SIZE) {
    await db.prepare("UPDATE mass_messages SET status = 'sent' WHERE id = ?").bind(mass.id).run();
    return null;
  }
  return { massMessageId: mass.id, after: recipients.at(-1)! };
}

/** The Queue message's body, checked: anything else on the queue is dropped. */
export const MassMessageJobSchema = z.object({
  massMessageId: z.number().int().positive(),
  after: z.number().int().min(0),
});
