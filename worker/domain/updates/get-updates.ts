import type { UserRow } from "../accounts/users";
import { isoNow } from "../shared/time";
import type { Updates } from "@shared/contracts/accounts";
export { type Updates };

/** Counts stop here: the badge shows "99+" past 99, and a long unread backlog costs no more to count. */
export const UNREAD_COUNT_CAP = 100;

/**
 * One statement, every part an index seek: `home` is a post by a followed creator published since the user last
 * opened /home (or since sign-up) — `status = 'published'` lets it seek posts_feed by date instead of reading
 * every post of every followed creator (20 ms → 0.05 ms at the benchmark's sizes); `notifications` the unread notifications; `messages` the unread messages (spec §7, issue 12: a count of messages, capped like
 * notifications), summed over the conversations with something unread (conversation_members_unread). `balance` says the wallet cannot cover the next renewal: the active (not cancelled) paid
 * subscription that renews first (subscriptions_fan seek, a handful of rows per fan) costs more than the wallet
 * holds; its price is the lower of the agreed one and the plan's today, as the renewal charges (a plan withdrawn
 * ends the subscription instead: nothing to cover). No such subscription: NULL, so false.
 */
export async function getUpdates(db: D1Database, user: UserRow): Promise<Updates> {
  const row = await db
    .prepare(
      `SELECT
         EXISTS (SELECT 1 FROM follows f JOIN posts p ON p.user_id = f.creator_id
                 WHERE f.follower_id = ?1 AND p.status = 'published' AND p.published_at > ?2 AND p.published_at <= ?3) AS home,
         (SELECT COUNT(*) FROM (SELECT 1 FROM notifications WHERE user_id = ?1 AND read_at IS NULL LIMIT ?4)) AS notifications,
         MIN((SELECT COALESCE(SUM(unread_count), 0) FROM conversation_members WHERE user_id = ?1 AND unread_count > 0), ?4) AS messages,
         COALESCE((SELECT balance_cents FROM ledger_accounts WHERE user_id = ?1 AND kind = 'wallet'), 0) <
           (SELECT MIN(s.price_cents, COALESCE(pl.price_cents, 0)) FROM subscriptions s
            LEFT JOIN subscription_plans pl ON pl.creator_id = s.creator_id AND pl.period = s.period
            WHERE s.fan_id = ?1 AND s.status = 'active' AND s.price_cents > 0
            ORDER BY s.current_period_end LIMIT 1) AS balance`,
    )
    .bind(user.id, user.home_seen_at ?? user.created_at, isoNow(), UNREAD_COUNT_CAP)
    .first<{ home: number; notifications: number; messages: number; balance: number | null }>();
  return { home: row?.home === 1, notifications: row?.notifications ?? 0, messages: row?.messages ?? 0, balance: row?.balance === 1 };
}

/**
 * Opening /home clears the Home dot up to `upTo`, when the screen says when the newest post it holds was published
 * (else up to now): a post published between the screen's fetch and this call still lights the dot, instead of
 * being marked seen unseen. The mark never moves back (an old screen cannot relight what a newer one cleared) nor
 * past now. Answers the mark now stored.
 */
export async function markHomeSeen(db: D1Database, user: Pick<UserRow, "id" | "home_seen_at">, upTo?: string): Promise<string> {
  const current = isoNow();
  const wanted = upTo !== undefined && upTo < current ? upTo : current;
  const seenAt = user.home_seen_at !== null && user.home_seen_at > wanted ? user.home_seen_at : wanted;
  await db
    .prepare("UPDATE users SET home_seen_at = ?2 WHERE id = ?1 AND (home_seen_at IS NULL OR home_seen_at < ?2)")
    .bind(user.id, seenAt)
    .run();
  return seenAt;
}
