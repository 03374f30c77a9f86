/**
 * The stories' rules the page needs too (the composer, the viewer): apart from stories.ts, whose schemas the browser
 * must not load.
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
