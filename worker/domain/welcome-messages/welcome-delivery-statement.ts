/**
 * The statement that books the welcome message of a subscription just created, for the batch that creates it:
 * with the creator's settings of that moment (nothing when theirs is off), so a change made before it is
 * delivered does not change what this fan gets. Only the subscription started at `now` is booked: a renewal,
 * a reactivation or a gift added to a running subscription writes no new one, and books nothing. Delivered by
 * sendWelcomeMessages; its result names the subscription when one was booked (bookedWelcome).
 */
export const welcomeDeliveryStatement = (db: D1Database, fanId: number, creatorId: number, now: string) =>
  db
    .prepare(
      `INSERT INTO welcome_deliveries (subscription_id, creator_id, fan_id, text, price_cents, media_ids, created_at)
       SELECT s.id, w.creator_id, s.fan_id, w.text, w.price_cents, w.media_ids, ?3
       FROM welcome_messages w
       JOIN subscriptions s ON s.fan_id = ?1 AND s.creator_id = w.creator_id AND s.status IN ('active', 'cancelled')
         AND s.started_at = ?3
       WHERE w.creator_id = ?2 AND w.enabled = 1
       ON CONFLICT (subscription_id) DO NOTHING RETURNING subscription_id`,
    )
    .bind(fanId, creatorId, now);

/** The subscription whose welcome message welcomeDeliveryStatement booked, from its result; null: none. */
export const bookedWelcome = (result: D1Result) =>
  (result.results[0] as { subscription_id: number } | undefined)?.subscription_id ?? null;
