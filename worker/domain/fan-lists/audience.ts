import { parseListRef, type ListRef } from "@shared/contracts/fan-lists";
import { LIVE_SUBSCRIPTION_SQL, subscribesSql, visibleMemberSql } from "../policies/members";

/**
 * Every list names now (?2), even one that needs no time: D1 refuses a binding its statement does not name, and
 * callers bind the same two parameters whatever the lists are.
 */
const NAMES_NOW = "?2 IS NOT NULL";

/** A fan's paid records with creator ?1 (`p`): subscriptions, renewals, tips, posts, messages, streams. */
const PAID_TO_CREATOR_SQL = "p.creator_id = ?1 AND p.status = 'succeeded'";

/** The start of a top spenders' period, from now (?2), as an ISO time; null for "all". */
function periodStartSql(period: string): string | null {
  return period === "all" ? null : `strftime('%Y-%m-%dT%H:%M:%fZ', ?2, '-${Number(period)} days')`;
}

/** `p` paid creator ?1 within a top spenders' period ("all": ever). */
export const paidInPeriodSql = (period: string) => {
  const start = periodStartSql(period);
  return start ? `${PAID_TO_CREATOR_SQL} AND p.created_at >= ${start}` : PAID_TO_CREATOR_SQL;
};

/**
 * The fans (column `fan`, each once) of creator ?1 in one list, ?2 being now (ISO). The ref is validated
 * (ListRefSchema), so its numbers are inlined. Every list reads an index of the creator's own rows (follows,
 * subscriptions, payments, purchases, fan_list_members), never a scan of users; a list owned by someone else, or a
 * post or message of someone else, holds nobody. Blocks and suspensions are the caller's (audienceSql, the pages).
 */
export function listFansSql(ref: ListRef): string {
  const list = parseListRef(ref);
  switch (list.kind) {
    case "subscribers":
      return `SELECT s.fan_id AS fan FROM subscriptions s WHERE s.creator_id = ?1 AND ${LIVE_SUBSCRIPTION_SQL}`;
    case "followers":
      // Followers who never subscribed: no subscription row of the pair at all, live, expired or a trial.
      return `SELECT f.follower_id AS fan FROM follows f WHERE f.creator_id = ?1 AND ${NAMES_NOW}
              AND NOT EXISTS (SELECT 1 FROM subscriptions x WHERE x.fan_id = f.follower_id AND x.creator_id = ?1)`;
    case "expired":
      // A subscription that no longer entitles (expired, or run out before the cron marked it) and no live one.
      return `SELECT DISTINCT x.fan_id AS fan FROM subscriptions x WHERE x.creator_id = ?1
              AND NOT ${subscribesSql("x.fan_id", "?1")}`;
    case "trial":
      return `SELECT s.fan_id AS fan FROM subscriptions s WHERE s.creator_id = ?1 AND ${LIVE_SUBSCRIPTION_SQL}
              AND s.trial_ends_at > ?2
              AND EXISTS (SELECT 1 FROM offer_claims c WHERE c.subscription_id = s.id AND c.free_trial = 1)`;
    case "tippers":
      return `SELECT DISTINCT p.user_id AS fan FROM payments p WHERE ${PAID_TO_CREATOR_SQL} AND ${NAMES_NOW}
              AND p.kind IN ('tip', 'live_tip')`;
    case "top-spenders":
      return `SELECT DISTINCT p.user_id AS fan FROM payments p WHERE ${paidInPeriodSql(list.period)} AND ${NAMES_NOW}`;
    case "buyers":
      if (list.of === "post")
        return `SELECT pp.user_id AS fan FROM post_purchases pp JOIN posts po ON po.id = pp.post_id
                WHERE pp.post_id = ${list.id} AND po.user_id = ?1 AND ${NAMES_NOW}`;
      if (list.of === "message")
        return `SELECT mp.user_id AS fan FROM message_purchases mp JOIN messages m ON m.id = mp.message_id
                WHERE mp.message_id = ${list.id} AND m.sender_id = ?1 AND ${NAMES_NOW}`;
      return `SELECT DISTINCT mp.user_id AS fan FROM messages m JOIN message_purchases mp ON mp.message_id = m.id
              WHERE m.mass_message_id = ${list.id} AND m.sender_id = ?1 AND ${NAMES_NOW}`;
    case "custom":
      return `SELECT fm.fan_id AS fan FROM fan_list_members fm JOIN fan_lists fl ON fl.id = fm.list_id
              WHERE fm.list_id = ${list.id} AND fl.creator_id = ?1 AND ${NAMES_NOW}`;
  }
}

/**
 * The fans of creator ?1 (?2 now) in any list of `include` and in none of `exclude` (a fan in both is excluded),
 * who are visible members with no block either way with the creator: the audience of a mass message. Each side is
 * a subquery of its own: SQLite reads `A EXCEPT B UNION C` as `(A EXCEPT B) UNION C`, which would add C back.
 */
export function audienceSql(include: readonly ListRef[], exclude: readonly ListRef[]): string {
  // Compound SELECTs associate to the left and a list may be one itself (expired is an EXCEPT): each list is its
  // own subquery, and so are the excluded ones together, or `a UNION b EXCEPT c` would mean (a ∪ b) − c.
  const unionOf = (refs: readonly ListRef[]) =>
    refs.map((ref) => `SELECT fan FROM (${listFansSql(ref)})`).join(" UNION ");
  const excluded = exclude.length > 0 ? ` EXCEPT SELECT fan FROM (${unionOf(exclude)})` : "";
  return `SELECT u.id AS fan FROM (${unionOf(include)}${excluded}) a JOIN users u ON u.id = a.fan
          WHERE ${visibleMemberSql("u")}`;
}
