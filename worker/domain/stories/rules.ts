import { z } from "zod";
import {
  MAX_HIGHLIGHT_TITLE_LENGTH,
  MAX_STORY_TEXT_LENGTH,
  MAX_STORY_VIDEO_MS,
  STORY_AUDIENCES,
} from "@shared/contracts/story-limits";
import { INVALID_VALUE } from "@shared/messages";
import { message } from "@shared/messages";
import { idNumber, multilineText, singleLineText } from "@shared/contracts/text";

export const ONLY_CREATORS_STORY = message("Only creators can post stories.");
export const STORY_MEDIA_MISSING = message("Choose a photo or a video uploaded for a story.");
export const STORY_MEDIA_NOT_READY = message("Wait for the upload to finish.");
export const STORY_VIDEO_TOO_LONG = message("A story video can be at most 60 seconds.");
export const STORY_VIDEO_LENGTH_UNKNOWN = message("The length of this video could not be read.");
export const HIGHLIGHT_NOT_FOUND = message("This highlight does not exist.");
export const NO_STORIES_NOW = message("No stories right now");

const storyText = multilineText({ message: INVALID_VALUE })
  .trim()
  .max(MAX_STORY_TEXT_LENGTH, { message: message("The text is at most 200 characters.") });

export const CreateStorySchema = z
  .object({
    mediaId: idNumber,
    text: storyText.default(""),
    audience: z.enum(STORY_AUDIENCES, { message: INVALID_VALUE }),
    /** A video's length as the browser measured it: used only when the file itself does not say. */
    durationMs: z
      .number({ message: INVALID_VALUE })
      .int({ message: INVALID_VALUE })
      .min(0, { message: INVALID_VALUE })
      .max(24 * 3600 * 1000, { message: INVALID_VALUE })
      .nullable()
      .default(null),
  })
  .strict();
export type CreateStoryInput = z.output<typeof CreateStorySchema>;

const highlightTitle = singleLineText({ message: INVALID_VALUE })
  .trim()
  .min(1, { message: message("Give the highlight a title.") })
  .max(MAX_HIGHLIGHT_TITLE_LENGTH, { message: message("A highlight title is at most 30 characters.") });

/** Keep a story in an existing highlight of the creator's (highlightId), or in a new one with this title. */
export const KeepStorySchema = z
  .object({ highlightId: idNumber.optional(), title: highlightTitle.optional() })
  .strict()
  .refine((input) => (input.highlightId === undefined) !== (input.title === undefined), {
    message: INVALID_VALUE,
    path: ["title"],
  });
export type KeepStoryInput = z.output<typeof KeepStorySchema>;

export const StoryLikeSchema = z.object({ liked: z.boolean({ message: INVALID_VALUE }) }).strict();

/** Is this a video too long for a story? */
export const isTooLong = (durationMs: number) => durationMs > MAX_STORY_VIDEO_MS;
