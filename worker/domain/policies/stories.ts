import type { StoryAudience } from "@shared/contracts/story-limits";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { blockedEitherWaySql, followsSql, geoHiddenSql, subscribesSql } from "./members";
import type { Viewer } from "./policy";

/**
 * The stories policy (docs/decisions/stories.md):
 *
 * - "see" (the bar, the viewer, the media and poster URLs, viewing and liking): the story exists (not expired,
 *   or kept in a highlight), its creator is not suspended and does not geo-block the viewer's place, neither
 *   blocked the other, and its audience admits the viewer: everyone (any member), followers (following or
 *   subscribed), subscribers (a live subscription). The creator always. A story the viewer may not see is not listed and is "not found".
 * - "manage" (delete, highlights, the viewers list): the creator only; anyone else is told "not found" as well.
 *
 * Stories are for members: a visitor sees none.
 */
const STORY_NOT_FOUND = message("This story does not exist.");

export type StoryAction = "see" | "manage";

/**
 * The rule of "see", once, as SQL: lists filter with it (the bar, a reel, a highlight, the ring), the commands and
 * the media read it as a column. `st` a story, `o` its creator, ?1 the viewer, ?2 now. Each clause is an index probe.
 * Built per request: the creator's geo-blocking depends on the viewer's place.
 */
export const storyVisibleSql = () => `
  (st.expires_at > ?2 OR st.highlight_id IS NOT NULL)
  AND (st.creator_id = ?1 OR (
    o.suspended_at IS NULL
    AND NOT ${blockedEitherWaySql("?1", "st.creator_id")}
    AND NOT ${geoHiddenSql("o", "?1")}
    AND (st.audience = 'everyone'
      OR (st.audience = 'followers' AND ${followsSql("?1", "st.creator_id")})
      OR ${subscribesSql("?1", "st.creator_id")})))`;

/** "manage" is "see" for the creator alone: their own story, while it exists. */
const mayAccessStory = (action: StoryAction, story: { creator_id: number }, viewerId: number, visible: boolean) =>
  visible && (action === "see" || story.creator_id === viewerId);

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

/**
 * The single-story form for commands: what the viewer may not do is "not found" (nothing said of what exists).
 * One statement: the story and the rule's answer.
 */
export async function requireStoryAccess(
  db: D1Database,
  viewer: Viewer,
  storyId: number,
  action: StoryAction,
): Promise<StoryRow> {
  const row = await db
    .prepare(
      `SELECT st.*, ${storyVisibleSql()} AS visible FROM stories st JOIN users o ON o.id = st.creator_id WHERE st.id = ?3`,
    )
    .bind(viewer.id, isoNow(), storyId)
    .first<StoryRow & { visible: number }>();
  if (!row || !mayAccessStory(action, row, viewer.id, row.visible === 1))
    throw new AppError("not_found", STORY_NOT_FOUND);
  return row;
}
