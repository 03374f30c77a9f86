/**
 * The stories API's answers (/api/stories…, highlights): written by worker/domain/stories, documented by worker/api,
 * checked by the stories bar, the viewer (/stories) and the composer (/stories/create) with
 * app/components/stories/story-shapes.ts, generated from these schemas. Then the bodies of posting, keeping and
 * liking a story. The page imports types only from here: its constants are in story-limits.ts.
 */

import { z } from "zod";
import { videoPlaybackFields } from "./renditions";
import { INVALID_VALUE, message } from "../messages";
import { MAX_HIGHLIGHT_TITLE_LENGTH, MAX_STORY_TEXT_LENGTH, STORY_AUDIENCES } from "./story-limits";
import { idNumber, multilineText, singleLineText } from "./text";

const StoryAuthorSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  avatarUrl: z.string(),
});

/** One creator in the stories bar. */
const StoriesBarItemSchema = z
  .object({
    creator: StoryAuthorSchema,
    count: z.number().int(),
    unseen: z
      .number()
      .int()
      .meta({ description: "Stories of theirs the viewer has not seen yet (0: the ring is grey)" }),
    latestAt: z.string(),
  })
  .meta({ id: "StoriesBarItem" });
export type StoriesBarItem = z.infer<typeof StoriesBarItemSchema>;

/** GET /stories: one's own stories, then followed creators with stories one may see, unseen first. */
export const StoriesBarSchema = z.object({ creators: z.array(StoriesBarItemSchema) }).meta({ id: "StoriesBar" });

export const StorySchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(["image", "video"]),
    url: z.string(),
    posterUrl: z.string().nullable(),
    ...videoPlaybackFields,
    text: z.string(),
    audience: z.enum(STORY_AUDIENCES),
    durationMs: z.number().int().nullable(),
    createdAt: z.string(),
    expiresAt: z.string(),
    highlightId: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The creator's own stories only; null while the story is not in a highlight" }),
    seen: z.boolean(),
    liked: z.boolean(),
    own: z
      .object({ viewCount: z.number().int(), likeCount: z.number().int() })
      .nullable()
      .meta({ description: "The creator's own stories only: the counts, the viewers list, delete and highlight" }),
  })
  .meta({ id: "Story" });
export type StoryView = z.infer<typeof StorySchema>;

/** A creator's stories, oldest first, as the viewer plays them. */
export const StoryReelSchema = z
  .object({ creator: StoryAuthorSchema, stories: z.array(StorySchema) })
  .meta({ id: "StoryReel" });
export type StoryReel = z.infer<typeof StoryReelSchema>;

const HighlightTitleSchema = z.object({ id: z.number().int(), title: z.string() });

/** A highlight's stories the viewer may see, with the highlight they are in. */
export const HighlightReelSchema = StoryReelSchema.extend({ highlight: HighlightTitleSchema }).meta({
  id: "HighlightReel",
});

const HighlightSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    coverUrl: z
      .string()
      .nullable()
      .meta({ description: "The first story's picture (a photo, or a video's poster frame) that the viewer may see" }),
    count: z.number().int(),
  })
  .meta({ id: "Highlight" });
export type HighlightView = z.infer<typeof HighlightSchema>;

/** A creator's highlights, each with the stories in it the viewer may see. */
export const HighlightsSchema = z.object({ highlights: z.array(HighlightSchema) }).meta({ id: "Highlights" });

/** One's own highlights by title (to add a story to one). */
export const HighlightTitlesSchema = z
  .object({ highlights: z.array(HighlightTitleSchema) })
  .meta({ id: "HighlightTitles" });
export type HighlightTitles = z.infer<typeof HighlightTitlesSchema>;

const StoryViewerItemSchema = z.object({ user: StoryAuthorSchema, viewedAt: z.string(), liked: z.boolean() });
export type StoryViewerItem = z.infer<typeof StoryViewerItemSchema>;

/** Who saw one's own story, newest first, and the story's counts. */
export const StoryViewersPageSchema = z
  .object({
    viewers: z.array(StoryViewerItemSchema),
    nextCursor: z.string().nullable(),
    viewCount: z.number().int(),
    likeCount: z.number().int(),
  })
  .meta({ id: "StoryViewersPage" });
export type StoryViewersPage = z.infer<typeof StoryViewersPageSchema>;

export const StoryLikedSchema = z.object({ liked: z.boolean() }).meta({ id: "StoryLiked" });
export type StoryLiked = z.infer<typeof StoryLikedSchema>;

/** The highlight a story was kept in. */
export const StoryKeptSchema = z.object({ highlightId: z.number().int() }).meta({ id: "StoryKept" });
export type StoryKept = z.infer<typeof StoryKeptSchema>;

const storyText = multilineText({ message: INVALID_VALUE })
  .trim()
  .max(MAX_STORY_TEXT_LENGTH, { message: message("The text is at most 200 characters.") });

export const CreateStoryBodySchema = z
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
export type CreateStoryInput = z.output<typeof CreateStoryBodySchema>;

const highlightTitle = singleLineText({ message: INVALID_VALUE })
  .trim()
  .min(1, { message: message("Give the highlight a title.") })
  .max(MAX_HIGHLIGHT_TITLE_LENGTH, { message: message("A highlight title is at most 30 characters.") });

/** Keep a story in an existing highlight of the creator's (highlightId), or in a new one with this title. */
export const KeepStoryBodySchema = z
  .object({ highlightId: idNumber.optional(), title: highlightTitle.optional() })
  .strict()
  .refine((input) => (input.highlightId === undefined) !== (input.title === undefined), {
    message: INVALID_VALUE,
    path: ["title"],
  });
export type KeepStoryInput = z.output<typeof KeepStoryBodySchema>;

export const StoryLikeBodySchema = z.object({ liked: z.boolean({ message: INVALID_VALUE }) }).strict();
