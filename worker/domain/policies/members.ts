import type { ProfilePermissions } from "@shared/contracts/profiles";
import { viewerPlaces } from "./viewer-place";
export { type ProfilePermissions };

/**
 * The members policy: what two members are to each other. Every other policy (posts, conversations, live
 * streams, stories) and every list of people (fans, suggestions, mass messages, who hears of a stream) builds
 * its SQL from these fragments, so "blocked", "follows" and "subscribes" each mean one thing everywhere.
 * Arguments are SQL expressions written by the callers (a column or a parameter), never input.
 */

/** Either of `a` and `b` blocked the other: one probe of the blocks primary key each way. */
export const blockedEitherWaySql = (a: string, b: string) =>
  `(EXISTS (SELECT 1 FROM blocks bl WHERE bl.blocker_id = ${a} AND bl.blocked_id = ${b})
    OR EXISTS (SELECT 1 FROM blocks bl WHERE bl.blocker_id = ${b} AND bl.blocked_id = ${a}))`;

/** `follower` follows `creator`: one probe of the follows primary key. */
export const followsSql = (follower: string, creator: string) =>
  `EXISTS (SELECT 1 FROM follows fo WHERE fo.follower_id = ${follower} AND fo.creator_id = ${creator})`;

/** A subscription `s` entitles while active, and while cancelled until the end of the paid period (?2 is now). */
export const LIVE_SUBSCRIPTION_SQL = "s.status IN ('active', 'cancelled') AND s.current_period_end > ?2";

/**
 * The live subscriptions of a fan, aliased `s`. INDEXED BY because without statistics SQLite prefers the range
 * of subscriptions_due (every live subscription of everyone) to this unique (fan, creator) probe.
 */
export const LIVE_SUBSCRIPTIONS_OF_VIEWER = "subscriptions s INDEXED BY subscriptions_live";

/** `fan` holds a live subscription to `creator` (?2 is now): one probe of subscriptions_live. */
export const subscribesSql = (fan: string, creator: string) =>
  `EXISTS (SELECT 1 FROM ${LIVE_SUBSCRIPTIONS_OF_VIEWER} WHERE s.fan_id = ${fan} AND s.creator_id = ${creator} AND ${LIVE_SUBSCRIPTION_SQL})`;

/**
 * `member` (the alias of a `users` row) geo-blocks the place the request comes from (viewer-place.ts), and
 * `viewer` (a column or parameter; NULL for a visitor) is someone else: a creator always sees their own. One probe
 * of the geo_blocks primary key per place code; the codes are known ones, written in as literals. Outside a
 * request, or from an unknown place, nothing is hidden.
 */
export function geoHiddenSql(member: string, viewer: string): string {
  // With no place the list is empty (SQLite's `IN ()` is false) and `viewer` is still named: its parameter stays bound.
  const codes = viewerPlaces()
    .map((place) => `'${place}'`)
    .join(", ");
  return `(${member}.id IS NOT ${viewer} AND EXISTS (SELECT 1 FROM geo_blocks gb WHERE gb.creator_id = ${member}.id AND gb.place IN (${codes})))`;
}

/**
 * A member exists for the viewer (?1; NULL for a visitor) unless suspended, one of the two blocks the other, or
 * they geo-block the viewer's place (geoHiddenSql). `member` is the alias of a `users` row. Posts, profiles, fans
 * and suggestions all decide "who exists" with this; SQL holding it is built per request, as the place is.
 */
export const visibleMemberSql = (member: string) =>
  `${member}.suspended_at IS NULL AND NOT ${blockedEitherWaySql("?1", `${member}.id`)} AND NOT ${geoHiddenSql(member, "?1")}`;

/**
 * The pure rule behind ProfilePermissions, from the facts getProfile reads: the owner edits; someone else signed in
 * may report and block (also across a block, to lift it), and follow and tip (a creator) unless a block stands.
 */
export function profilePermissionsOf(
  member: { id: number; isCreator: boolean },
  viewerId: number | null,
  blocked: boolean,
): ProfilePermissions {
  const other = viewerId !== null && viewerId !== member.id;
  return {
    canEdit: viewerId === member.id,
    canFollow: other && !blocked,
    canTip: other && !blocked && member.isCreator,
    canReport: other,
    canBlock: other,
  };
}
