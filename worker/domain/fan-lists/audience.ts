import { parseListRef, type ListRef } from "@shared/contracts/fan-lists";
import { LIVE_SUBSCRIPTION_SQL, visibleMemberSql } from "../policies/members";

/**
 * The fans (column `fan`) of creator ?1 in one list, ?2 being now (ISO). The ref is validated (ListRefSchema), so
 * its numbers are inlined. Every list reads an index of the creator's own rows (follows, subscriptions, payments,
 * fan_list_members), never a scan of users.
 */
export function listFansSql(ref: ListRef): string {
  const list = parseListRef(ref);
  switch (list.kind) {
    case "subscribers":
      return `SELECT s.fan_id AS fan FROM subscriptions s WHERE s.creator_id = ?1 AND ${LIVE_SUBSCRIPTION_SQL}`;
    case "followers":
      return "SELECT f.follower_id AS fan FROM follows f WHERE f.creator_id = ?1";
    case "expired":
      return `SELECT s.fan_id AS fan FROM subscriptions s WHERE s.creator_id = ?1 AND s.status = 'expired'
              EXCEPT SELECT s.fan_id FROM subscriptions s WHERE s.creator_id = ?1 AND ${LIVE_SUBSCRIPTION_SQL}`;
    default:
      // The fan-lists part fills the other lists in.
      throw new Error(`list not supported yet: ${ref}`);
  }
}

/**
 * The fans of creator ?1 (?2 now) in any list of `include` and in none of `exclude` (a fan in both is excluded),
 * who are visible members with no block either way with the creator: the audience of a mass message.
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
