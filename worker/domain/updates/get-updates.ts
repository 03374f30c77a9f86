import type { UserRow } from "../accounts/users";
import { followsSql } from "../policies/members";
import { isoNow } from "../shared/time";
import { MANY_FOLLOWS } from "../timeline/get-timeline";
import type { Updates } from "@shared/contracts/session";
export { type Updates };

/** Counts stop here: the badge shows "99+" past 99, and a long unread backlog costs no more to count. */
export const UNREAD_COUNT_CAP = 100;

/** Whether a followed creator has published since ?2 (the last visit) and by ?3 (now): a seek per followed creator. */
const HOME_BY_AUTHORS_SQL = `EXISTS (SELECT 1 FROM follows f JOIN posts p ON p.user_id = f.creator_id
         WHERE f.follower_id = ?1 AND p.status = 'published' AND p.published_at > ?2 AND p.published_at <= ?3)`;

/**
 * The same answer for a fan who follows many creators (MANY_FOLLOWS, as the timeline's "recent" way), read the other
 * way round: the posts published since the last visit, newest first (posts_recent), until one is by a followed
 * creator. The walk goes no further back than the ?5-th newest post (`bound`, read from the index alone; ?5 is the
 * fan's follow count, so the walk costs at most what the seeks per author would). When that bound is at or before the
 * last visit, the walk has seen every post since it and its answer is the answer; otherwise a walk that found
 * nothing is not trusted and the per-author seeks decide. So a fan following 1,000 creators, polling after opening
 * /home when nothing is new (the usual case), walks the few posts published meanwhile instead of seeking 1,000
 * times.
 */
const HOME_BY_RECENT_SQL = `CASE
         WHEN EXISTS (SELECT 1 FROM posts p INDEXED BY posts_recent
                      WHERE p.status = 'published' AND p.published_at > ?2 AND p.published_at <= ?3
                        AND p.published_at >= coalesce((SELECT at FROM bound), '')
                        AND ${followsSql("?1", "p.user_id")}) THEN 1
         WHEN coalesce((SELECT at FROM bound), '') <= ?2 THEN 0
         ELSE ${HOME_BY_AUTHORS_SQL} END`;

const BOUND_CTE = `WITH bound(at) AS (
         SELECT p.published_at FROM posts p INDEXED BY posts_recent WHERE p.status = 'published' AND p.published_at <= ?3
         ORDER BY p.published_at DESC, p.id DESC LIMIT 1 OFFSET ?5 - 1)`;

const updatesSql = (home: string) => `SELECT
         ${home} AS home,
         (SELECT COUNT(*) FROM (SELECT 1 FROM notifications WHERE user_id = ?1 AND read_at IS NULL LIMIT ?4)) AS notifications,
         MIN((SELECT COALESCE(SUM(unread_count), 0) FROM conversation_members WHERE user_id = ?1 AND unread_count > 0), ?4) AS messages,
         COALESCE((SELECT balance_cents FROM ledger_accounts WHERE user_id = ?1 AND kind = 'wallet'), 0) <
           (SELECT MIN(s.price_cents, COALESCE(pl.price_cents, 0)) FROM subscriptions s
            LEFT JOIN subscription_plans pl ON pl.creator_id = s.creator_id AND pl.period = s.period
            WHERE s.fan_id = ?1 AND s.status = 'active' AND s.price_cents > 0
            ORDER BY s.current_period_end LIMIT 1) AS balance`;

const UPDATES_SQL = updatesSql(HOME_BY_AUTHORS_SQL);
const UPDATES_MANY_FOLLOWS_SQL = `${BOUND_CTE}\n${updatesSql(HOME_BY_RECENT_SQL)}`;

/**
 * One statement, every part an index seek: `home` is a post by a followed creator published since the user last
 * opened /home (or since sign-up) — `status = 'published'` lets it seek posts_feed by date instead of reading
 * every post of every followed creator (20 ms → 0.05 ms at the benchmark's sizes), and a fan who follows many
 * creators walks the recent posts instead (above); `notifications` the unread notifications; `messages` the unread messages (spec §7: a count of messages, capped like
 * notifications), summed over the conversations with something unread (conversation_members_unread). `balance` says the wallet cannot cover the next renewal: the active (not cancelled) paid
 * subscription that renews first (subscriptions_fan seek, a handful of rows per fan) costs more than the wallet
 * holds; its price is the lower of the agreed one and the plan's today, as the renewal charges (a plan withdrawn
 * ends the subscription instead: nothing to cover). No such subscription: NULL, so false. `explain` asks for the
 * statement's query plan instead (the tests read it).
 */
export function updatesStatement(
  db: D1Database,
  user: Pick<UserRow, "id" | "home_seen_at" | "created_at" | "following_count">,
  explain = false,
) {
  const many = user.following_count >= MANY_FOLLOWS;
  return db
    .prepare(`${explain ? "EXPLAIN QUERY PLAN " : ""}${many ? UPDATES_MANY_FOLLOWS_SQL : UPDATES_SQL}`)
    .bind(
      user.id,
      user.home_seen_at ?? user.created_at,
      isoNow(),
      UNREAD_COUNT_CAP,
      ...(many ? [user.following_count] : []),
    );
}

export async function getUpdates(db: D1Database, user: UserRow): Promise<Updates> {
  const row = await updatesStatement(db, user).first<{
    home: number;
    notifications: number;
    messages: number;
    balance: number | null;
  }>();
  return {
    home: row?.home === 1,
    notifications: row?.notifications ?? 0,
    messages: row?.messages ?? 0,
    balance: row?.balance === 1,
  };
}

/**
 * Opening /home clears the Home dot up to `upTo`, when the screen says when the newest post it holds was published
 * (else up to now): a post published between the screen's fetch and this call still lights the dot, instead of
 * being marked seen unseen. The mark never moves back (an old screen cannot relight what a newer one cleared) nor
 * past now. Answers the mark now stored.
 */
export async function markHomeSeen(
  db: D1Database,
  user: Pick<UserRow, "id" | "home_seen_at">,
  upTo?: string,
): Promise<string> {
  const current = isoNow();
  const wanted = upTo !== undefined && upTo < current ? upTo : current;
  const seenAt = user.home_seen_at !== null && user.home_seen_at > wanted ? user.home_seen_at : wanted;
  await db
    .prepare("UPDATE users SET home_seen_at = ?2 WHERE id = ?1 AND (home_seen_at IS NULL OR home_seen_at < ?2)")
    .bind(user.id, seenAt)
    .run();
  return seenAt;
}
