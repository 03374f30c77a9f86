import type { StoryAudience } from "@shared/contracts/stories";
import { LIVE_SUBSCRIPTION_SQL, LIVE_SUBSCRIPTIONS_OF_VIEWER } from "../posts/access";
import { AppError } from "../shared/errors";
import { message } from "../shared/messages";
import { isoNow } from "../shared/time";
import { audienceAdmits } from "./live";
import type { Policy, Viewer } from "./policy";

/**
 * The stories policy (docs/decisions/stories.md):
 *
 * - "see" (the bar, the viewer, the media and poster URLs, viewing and liking): the story exists (not expired,
 *   or kept in a highlight), its creator is not suspended, neither blocked the other, and its audience admits the
 *   viewer: everyone (any member), followers (following or subscribed), subscribers (a live subscription). The
 *   creator always. A story the viewer may not see is not listed and is "not found".
 * - "manage" (delete, highlights, the viewers list): the creator only; anyone else is told "not found" as well.
 *
 * Stories are for members: a visitor sees none.
 */
export const STORY_NOT_FOUND = message("This story does not exist.");

export type StoryAction = "see" | "manage";

/** The viewer's (?1) facts about the story aliased `st` and its creator `o`; ?2 is now. */
export const STORY_FACTS_SQL = `
  EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.creator_id = st.creator_id) AS s_follows,
  EXISTS (SELECT 1 FROM ${LIVE_SUBSCRIPTIONS_OF_VIEWER} WHERE s.fan_id = ?1 AND s.creator_id = st.creator_id AND ${LIVE_SUBSCRIPTION_SQL}) AS s_subscribes,
  (EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?1 AND b.blocked_id = st.creator_id)
    OR EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = st.creator_id AND b.blocked_id = ?1)) AS s_blocked,
  o.suspended_at IS NOT NULL AS s_creator_suspended,
  (st.expires_at <= ?2 AND st.highlight_id IS NULL) AS s_expired`;

export interface StoryFactsRow {
  s_follows: number;
  s_subscribes: number;
  s_blocked: number;
  s_creator_suspended: number;
  s_expired: number;
}

export interface StoryFacts {
  isCreator: boolean;
  follows: boolean;
  subscribes: boolean;
  blocked: boolean;
  creatorSuspended: boolean;
  /** Past its 24 hours and in no highlight: gone for everyone (the cron deletes it). */
  expired: boolean;
}

export const storyFactsOf = (viewerId: number, story: { creator_id: number }, row: StoryFactsRow): StoryFacts => ({
  isCreator: story.creator_id === viewerId,
  follows: row.s_follows === 1,
  subscribes: row.s_subscribes === 1,
  blocked: row.s_blocked === 1,
  creatorSuspended: row.s_creator_suspended === 1,
  expired: row.s_expired === 1,
});

/** The pure rule: may the viewer do `action` to a story with this audience, given the facts? "see" is a live
 * stream's audience rule (policies/live.ts, audienceAdmits); "manage" is the creator's alone. */
export function mayAccessStory(action: StoryAction, audience: StoryAudience, facts: StoryFacts): boolean {
  if (facts.expired) return false;
  if (action === "manage") return facts.isCreator;
  return audienceAdmits(audience, { ...facts, entered: false });
}

/**
 * The same rule as SQL, for lists that must not return what the viewer may not see (the bar, a reel, a
 * highlight): `st` a story, `o` its creator, ?1 the viewer, ?2 now. Each clause is an index probe.
 */
export const STORY_VISIBLE_SQL = `
  (st.expires_at > ?2 OR st.highlight_id IS NOT NULL)
  AND (st.creator_id = ?1 OR (
    o.suspended_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?1 AND b.blocked_id = st.creator_id)
    AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = st.creator_id AND b.blocked_id = ?1)
    AND (st.audience = 'everyone'
      OR (st.audience = 'followers' AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.creator_id = st.creator_id))
      OR EXISTS (SELECT 1 FROM ${LIVE_SUBSCRIPTIONS_OF_VIEWER} WHERE s.fan_id = ?1 AND s.creator_id = st.creator_id AND ${LIVE_SUBSCRIPTION_SQL}))))`;

export interface StoryRow {
  id: number;
  creator_id: number;
  media_id: number;
  text: string;
  audience: StoryAudience;
  duration_ms: number | null;
  created_at: string;
  expires_at: string;
  highlight_id: number | null;
  view_count: number;
  like_count: number;
}

export interface StoryAccess {
  story: StoryRow;
  facts: StoryFacts;
}

/** The stories among `ids` with the viewer's facts: one statement. */
export async function findStoryAccess(db: D1Database, viewer: Viewer, ids: readonly number[]): Promise<Map<number, StoryAccess>> {
  const { results } = await db
    .prepare(
      `SELECT st.*, ${STORY_FACTS_SQL}
       FROM stories st JOIN users o ON o.id = st.creator_id
       WHERE st.id IN (SELECT value FROM json_each(?3))`,
    )
    .bind(viewer.id, isoNow(), JSON.stringify(ids))
    .all<StoryRow & StoryFactsRow>();
  return new Map(results.map((row) => [row.id, { story: row, facts: storyFactsOf(viewer.id, row, row) }]));
}

export const storyPolicy: Policy<StoryAction, number> = {
  async allowed(db, viewer, action, ids) {
    if (!viewer) return new Set();
    const access = await findStoryAccess(db, viewer, ids);
    return new Set([...access.values()].filter(({ story, facts }) => mayAccessStory(action, story.audience, facts)).map(({ story }) => story.id));
  },
};

/** The single-story form for commands: what the viewer may not do is "not found" (nothing said of what exists). */
export async function requireStoryAccess(db: D1Database, viewer: Viewer, storyId: number, action: StoryAction): Promise<StoryAccess> {
  const access = (await findStoryAccess(db, viewer, [storyId])).get(storyId);
  if (!access || !mayAccessStory(action, access.story.audience, access.facts)) throw new AppError("not_found", STORY_NOT_FOUND);
  return access;
}
