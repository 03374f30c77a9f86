/**
 * The stories API's shapes as the page receives them (/api/stories…): written by worker/domain/stories, read by
 * the stories bar, the viewer (/stories) and the composer (/stories/create). Plain types and constants only.
 */

export const STORY_AUDIENCES = ["everyone", "followers", "subscribers"] as const;
export type StoryAudience = (typeof STORY_AUDIENCES)[number];

/** A story lives this long. */
export const STORY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** The longest video a story may be. */
export const MAX_STORY_VIDEO_MS = 60_000;
/** How long a photo stays on screen in the viewer. */
export const STORY_PHOTO_MS = 5_000;
export const MAX_STORY_TEXT_LENGTH = 200;
export const MAX_HIGHLIGHT_TITLE_LENGTH = 30;
/** How many creators the bar shows (those with unseen stories first). */
export const STORIES_BAR_SIZE = 100;

interface StoryAuthor {
  id: number;
  username: string;
  name: string;
  avatarUrl: string;
}

/** One creator in the stories bar: `unseen` stories of theirs the viewer has not seen yet (0: the ring is grey). */
export interface StoriesBarItem {
  creator: StoryAuthor;
  count: number;
  unseen: number;
  latestAt: string;
}

export interface StoryView {
  id: number;
  kind: "image" | "video";
  url: string;
  posterUrl: string | null;
  text: string;
  audience: StoryAudience;
  durationMs: number | null;
  createdAt: string;
  expiresAt: string;
  /** Null while the story is not in a highlight. */
  highlightId: number | null;
  seen: boolean;
  liked: boolean;
  /** The creator's own: the counts, the viewers list, delete and highlight. */
  own: { viewCount: number; likeCount: number } | null;
}

/** A creator's stories, oldest first, as the viewer plays them. */
export interface StoryReel {
  creator: StoryAuthor;
  stories: StoryView[];
}

export interface HighlightView {
  id: number;
  title: string;
  /** The first story's picture (a photo, or a video's poster frame) that the viewer may see. */
  coverUrl: string | null;
  count: number;
}

export interface StoryViewerItem {
  user: { id: number; username: string; name: string; avatarUrl: string };
  viewedAt: string;
  liked: boolean;
}
