import { MAX_STORY_VIDEO_MS } from "@shared/contracts/story-limits";
import { message } from "@shared/messages";

export const ONLY_CREATORS_STORY = message("Only creators can post stories.");
export const STORY_MEDIA_MISSING = message("Choose a photo or a video from your vault.");
/** A file is in one story at a time (stories.media_id is unique): docs/decisions/vault.md. */
export const STORY_MEDIA_IN_STORY = message("This photo or video is already in a story.");
export const STORY_MEDIA_NOT_READY = message("Wait for the upload to finish.");
export const STORY_VIDEO_TOO_LONG = message("A story video can be at most 60 seconds.");
export const STORY_VIDEO_LENGTH_UNKNOWN = message("The length of this video could not be read.");
export const HIGHLIGHT_NOT_FOUND = message("This highlight does not exist.");
export const NO_STORIES_NOW = message("No stories right now");

/** Is this a video too long for a story? */
export const isTooLong = (durationMs: number) => durationMs > MAX_STORY_VIDEO_MS;
