import type { EffectsContext } from "../context";
import { messageStatements } from "../messages/send-message";
import { blockedEitherWaySql } from "../policies/members";
import { isoNow } from "../shared/time";

/** Deliveries per cron run; each is three round trips. */
const DELIVERIES_PER_RUN = 50;

interface DueDelivery {
  subscription_id: number;
  creator_id: number;
  fan_id: number;
  text: string;
  price_cents: number;
  media_ids: string;
  /** The creator or the fan is suspended, or one blocks the other: nothing is sent. */
  unwelcome: number;
}

/** The client id of a subscription's welcome message: a second delivery of it is refused by the messages' key. */
const welcomeClientId = (subscriptionId: number) => `welcome-${subscriptionId}`;

const isUniqueClientId = (error: unknown) =>
  /UNIQUE constraint failed: messages\.sender_id, messages\.client_id/.test(String(error));

/**
 * Sends the welcome messages booked by new subscriptions (welcomeDeliveryStatement): `subscriptionId`'s alone
 * right after the subscription's answer, or every one still waiting (the cron, each minute). Each goes from the
 * creator into their conversation with the fan (made when missing) as an ordinary message, pay-per-view when it
 * has a price, and is announced like one (live in an open chat, the badge, a push). The message and the
 * booking's deletion are one batch, and the message's client id is the subscription's: two runs racing, or a
 * retried one, store it once. A suspended creator or fan, or a block either way, drops it unsent.
 */
export async function sendWelcomeMessages(
  ctx: Pick<EffectsContext, "db" | "publish">,
  subscriptionId?: number,
): Promise<number> {
  const { db } = ctx;
  const { results } = await db
    .prepare(
      `SELECT d.*, (creator.suspended_at IS NOT NULL OR fan.suspended_at IS NOT NULL
                    OR ${blockedEitherWaySql("d.creator_id", "d.fan_id")}) AS unwelcome
       FROM welcome_deliveries d JOIN users creator ON creator.id = d.creator_id JOIN users fan ON fan.id = d.fan_id
       WHERE ?1 IS NULL OR d.subscription_id = ?1 ORDER BY d.subscription_id LIMIT ?2`,
    )
    .bind(subscriptionId ?? null, DELIVERIES_PER_RUN)
    .all<DueDelivery>();
  let sent = 0;
  for (const due of results) {
    if (await deliver(ctx, due)) sent += 1;
  }
  return sent;
}

const forget = (db: D1Database, subscriptionId: number) =>
  db.prepare("DELETE FROM welcome_deliveries WHERE subscription_id = ?").bind(subscriptionId);

async function deliver(ctx: Pick<EffectsContext, "db" | "publish">, due: DueDelivery): Promise<boolean> {
  const { db } = ctx;
  if (due.unwelcome === 1) {
    await forget(db, due.subscription_id).run();
    return false;
  }
  const [low, high] = due.creator_id < due.fan_id ? [due.creator_id, due.fan_id] : [due.fan_id, due.creator_id];
  const now = isoNow();
  const [, , found] = await db.batch<{ id: number }>([
    db
      .prepare(
        "INSERT INTO conversations (user_low, user_high, created_at) VALUES (?, ?, ?) ON CONFLICT (user_low, user_high) DO NOTHING",
      )
      .bind(low, high, now),
    db
      .prepare(
        `INSERT INTO conversation_members (conversation_id, user_id)
         SELECT c.id, member.value FROM conversations c, json_each(json_array(?1, ?2)) member
         WHERE c.user_low = ?1 AND c.user_high = ?2 ON CONFLICT DO NOTHING`,
      )
      .bind(low, high),
    db.prepare("SELECT id FROM conversations WHERE user_low = ? AND user_high = ?").bind(low, high),
  ]);
  const conversationId = found!.results[0]!.id;
  let messageId: number;
  try {
    const [stored] = await db.batch<{ id: number }>([
      ...messageStatements(db, {
        conversationId,
        senderId: due.creator_id,
        recipientId: due.fan_id,
        clientId: welcomeClientId(due.subscription_id),
        text: due.text,
        priceCents: due.price_cents,
        paidCents: 0,
        mediaIds: JSON.parse(due.media_ids) as number[],
        at: now,
      }),
      forget(db, due.subscription_id),
    ]);
    messageId = stored!.results[0]!.id;
  } catch (error) {
    // Another run stored it first: only the booking is left to forget.
    if (!isUniqueClientId(error)) throw error;
    await forget(db, due.subscription_id).run();
    return false;
  }
  ctx.publish({
    type: "MessageSent",
    conversationId,
    messageId,
    senderId: due.creator_id,
    recipientId: due.fan_id,
    userLow: low,
    userHigh: high,
  });
  return true;
}

/**
 * Sends a subscription's booked welcome message once the subscribing request has answered; should that fail,
 * the cron's next run sends it.
 */
export function sendWelcomeMessageSoon(
  ctx: Pick<EffectsContext, "db" | "publish" | "defer">,
  subscriptionId: number | null,
) {
  if (subscriptionId === null) return;
  ctx.defer(
    sendWelcomeMessages(ctx, subscriptionId).catch((error: unknown) =>
      console.error(JSON.stringify({ welcome: subscriptionId, error: String(error) })),
    ),
  );
}
