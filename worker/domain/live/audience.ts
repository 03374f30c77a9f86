import { blockedEitherWaySql, LIVE_SUBSCRIPTION_SQL } from "../policies/members";

/**
 * Who hears that a creator went live, as rows (user_id, since): their followers and live subscribers, not blocked
 * either way, each once, `since` being when they last started following or subscribing. The notifications
 * (streams.ts) and the push fan-out (live-tips.ts) both read it. `creator` and `now` are the statement's
 * parameters (`?1`, `?3`…) holding the creator's id and the time.
 */
export const liveAudienceSql = (creator: string, now: string) => `
  SELECT user_id, MAX(since) AS since FROM (
    SELECT f.follower_id AS user_id, f.created_at AS since FROM follows f WHERE f.creator_id = ${creator}
    UNION ALL
    SELECT s.fan_id, s.started_at FROM subscriptions s
    WHERE s.creator_id = ${creator} AND ${LIVE_SUBSCRIPTION_SQL.replaceAll("?2", now)}
  ) audience
  WHERE NOT ${blockedEitherWaySql(creator, "audience.user_id")}
  GROUP BY user_id`;
