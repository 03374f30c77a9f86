/**
 * The posts API's answers (timeline, a profile's posts, /post/{id}, comments): written by the Worker's presenters
 * (worker/domain/posts, profiles, interactions), documented by worker/api, checked by the page
 * (app/lib/api-shapes.ts, generated from these schemas). Then the bodies of writing a post and a comment. The page
 * imports types only from here: a value import would bring zod into its bundle.
 */

import { z } from "zod";
import { videoPlaybackFields } from "./renditions";
import { now } from "../clock";
import { message } from "../messages";
import { ClientIdSchema, idNumber, multilineText } from "./text";

/**
 * Who sees what (docs/decisions/locked-posts.md). Every list, page, API answer and /media request decides here, from
 * facts about one viewer and one post that the queries compute in the same statement (VIEWER_FACTS_SQL), so a
 * feed page costs no query per post.
 */
export type Audience = "everyone" | "followers" | "subscribers";

export const AUDIENCES = ["everyone", "followers", "subscribers"] as const satisfies readonly Audience[];

/** What the viewer must do to open a locked post. */
export type LockReason = "follow" | "subscribe" | "purchase";

/** What the viewer may do with a post they see; the buttons under a post are exactly these. */
const PostPermissionsSchema = z
  .object({
    canEdit: z.boolean(),
    canDelete: z.boolean(),
    canLike: z.boolean(),
    canComment: z.boolean(),
    canBookmark: z.boolean(),
    canTip: z.boolean(),
    canUnlock: z.boolean(),
    canReport: z.boolean(),
  })
  .meta({ id: "PostPermissions" });
export type PostPermissions = z.infer<typeof PostPermissionsSchema>;

/** A copy of a photo `width` pixels wide, made by the uploader's browser; the page offers it with srcset. */
export const ScaledImageSchema = z.object({ width: z.number().int(), url: z.string() }).meta({ id: "ScaledImage" });
export type ScaledImage = z.infer<typeof ScaledImageSchema>;

const MediaKindSchema = z.enum(["image", "video"]);

/** One file of a post the viewer may open. */
export const MediaSchema = z
  .object({
    id: z.number().int(),
    kind: MediaKindSchema,
    url: z.string(),
    posterUrl: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    // Answers stored before photos had copies (offline copies, cached answers) have none.
    scaled: z.array(ScaledImageSchema).default([]).meta({
      description:
        "Smaller copies of a photo, narrowest first, under the same rule as `url` (empty when none was made)",
    }),
    ...videoPlaybackFields,
  })
  .meta({ id: "Media" });

/** One file of a post the viewer may not open. */
const LockedMediaSchema = z
  .object({
    kind: MediaKindSchema,
    previewUrl: z
      .string()
      .nullable()
      .meta({ description: "A tiny blurred image made at upload time; null when none exists" }),
  })
  .meta({ id: "LockedMedia" });

const POST_STATUSES = ["processing", "scheduled", "published"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/**
 * The one shape a post takes in every answer (timeline, profile, /post/{id}, bookmarks, search): its text is the
 * public teaser; media URLs appear only when the viewer may open the post, otherwise only blurred previews.
 */
export const PostSchema = z
  .object({
    id: z.number().int(),
    text: z.string(),
    audience: z.enum(AUDIENCES),
    priceCents: z.number().int(),
    status: z.enum(POST_STATUSES),
    publishedAt: z.string().nullable(),
    scheduledAt: z.string().nullable(),
    editedAt: z.string().nullable(),
    author: z.object({ id: z.number().int(), username: z.string(), name: z.string(), avatarUrl: z.string() }),
    likeCount: z.number().int(),
    commentCount: z.number().int(),
    liked: z.boolean(),
    bookmarked: z.boolean(),
    isOwn: z.boolean(),
    lock: z
      .enum(["follow", "subscribe", "purchase"] satisfies LockReason[])
      .nullable()
      .meta({ description: "null when open; otherwise what unlocks it" }),
    viewer: PostPermissionsSchema,
    mediaCount: z.number().int(),
    media: z.array(MediaSchema).nullable(),
    previews: z.array(LockedMediaSchema),
  })
  .meta({ id: "Post" });
export type PostView = z.infer<typeof PostSchema>;

/** Posts without a next page: a search's best matches, the timeline's new posts. */
export const PostListSchema = z.object({ posts: z.array(PostSchema) }).meta({ id: "PostList" });
export type PostList = z.infer<typeof PostListSchema>;

/** A keyset page of posts: /timeline, /bookmarks, a profile's tabs, /scheduled. */
export const PostPageSchema = z
  .object({
    posts: z.array(PostSchema),
    nextCursor: z.string().nullable().meta({ description: "Pass back as `cursor` for the next page; null at the end" }),
  })
  .meta({ id: "PostPage" });

export type UploadState = "uploading" | "ready" | "failed";

/** A processing post with the state of each of its files (the presenter shows ready ones only). */
const ProcessingPostSchema = PostSchema.extend({
  uploads: z.array(
    z.object({
      id: z.number().int(),
      kind: MediaKindSchema,
      status: z.enum(["uploading", "ready", "failed"] satisfies UploadState[]),
    }),
  ),
}).meta({ id: "ProcessingPost" });
export type ProcessingPostView = z.infer<typeof ProcessingPostSchema>;

export const ProcessingPostPageSchema = z
  .object({ posts: z.array(ProcessingPostSchema), nextCursor: z.string().nullable() })
  .meta({ id: "ProcessingPostPage" });
export type ProcessingPostPage = z.infer<typeof ProcessingPostPageSchema>;

/** The id of the post just deleted. */
export const DeletedPostSchema = z.object({ deleted: z.number().int() }).meta({ id: "DeletedPost" });

/** The viewer's like and the post's like count after a like or its taking back. */
export const LikeStateSchema = z.object({ liked: z.boolean(), likeCount: z.number().int() }).meta({ id: "LikeState" });
export type LikeState = z.infer<typeof LikeStateSchema>;

export const BookmarkStateSchema = z.object({ bookmarked: z.boolean() }).meta({ id: "BookmarkState" });

/** A comment as every answer shows it. */
export const CommentSchema = z
  .object({
    id: z.number().int(),
    postId: z.number().int(),
    text: z.string(),
    createdAt: z.string(),
    author: z.object({ id: z.number().int(), username: z.string(), name: z.string(), avatarUrl: z.string() }),
    canDelete: z.boolean().meta({ description: "The comment's author and the post's author may delete it" }),
  })
  .meta({ id: "Comment" });
export type CommentView = z.infer<typeof CommentSchema>;

/** A comment just written (or the one stored earlier under the same client id). */
export const CommentAnswerSchema = z.object({ comment: CommentSchema }).meta({ id: "CommentAnswer" });

export const CommentPageSchema = z
  .object({
    comments: z.array(CommentSchema),
    nextCursor: z.string().nullable().meta({ description: "Pass back as `cursor` for the next page; null at the end" }),
  })
  .meta({ id: "CommentPage" });
export type CommentPage = z.infer<typeof CommentPageSchema>;

export const DeletedCommentSchema = z.object({ deleted: z.literal(true) }).meta({ id: "DeletedComment" });

export type ProfileTab = "posts" | "media";

export type ProfilePostsPage = z.infer<typeof PostPageSchema>;

const POST_TEXT_MAX = 5000;
const POST_MEDIA_MAX = 20;
/** A paid post costs from $1 to $200; 0 is free. */
const POST_PRICE_MIN_CENTS = 100;
const POST_PRICE_MAX_CENTS = 20_000;
const SCHEDULE_HORIZON_MS = 365 * 24 * 3600 * 1000;

const AUDIENCE_REQUIRED = message("Who can see field is required!");
export const POST_EMPTY = message("Write something or add a photo or video.");
const TEXT_TOO_LONG = message("A post may have at most 5000 characters.");
const PRICE_RULE = message("The price is either free or between {{min, money}} and {{max, money}}.", {
  min: POST_PRICE_MIN_CENTS,
  max: POST_PRICE_MAX_CENTS,
});
const TOO_MANY_MEDIA = message("A post may have at most 20 photos and videos.");
const SCHEDULE_IN_PAST = message("Choose a time in the future.");
const SCHEDULE_TOO_FAR = message("Posts can be scheduled at most one year ahead.");

const textSchema = multilineText().trim().max(POST_TEXT_MAX, { message: TEXT_TOO_LONG });
const audienceSchema = z.enum(AUDIENCES, { message: AUDIENCE_REQUIRED });
const priceSchema = z
  .number()
  .int()
  .refine((cents) => cents === 0 || (cents >= POST_PRICE_MIN_CENTS && cents <= POST_PRICE_MAX_CENTS), {
    message: PRICE_RULE,
  });

/** An instant with its offset (the browser converts the creator's local time), stored as UTC ISO-8601. */
const scheduledAtSchema = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .refine((at) => at.getTime() > now().getTime(), { message: SCHEDULE_IN_PAST })
  .refine((at) => at.getTime() <= now().getTime() + SCHEDULE_HORIZON_MS, { message: SCHEDULE_TOO_FAR })
  .transform((at) => at.toISOString());

const mediaIdsSchema = z
  .array(idNumber)
  .max(POST_MEDIA_MAX, { message: TOO_MANY_MEDIA })
  .refine((ids) => new Set(ids).size === ids.length);

export const CreatePostBodySchema = z
  .object({
    text: textSchema.default(""),
    audience: audienceSchema,
    priceCents: priceSchema.default(0),
    mediaIds: mediaIdsSchema.default([]),
    scheduledAt: scheduledAtSchema.optional(),
  })
  .refine((post) => post.text.length > 0 || post.mediaIds.length > 0, { message: POST_EMPTY, path: ["text"] });
export type CreatePostInput = z.output<typeof CreatePostBodySchema>;

/** Only the fields sent change; scheduledAt only before publication. */
export const UpdatePostBodySchema = z.object({
  text: textSchema.optional(),
  audience: audienceSchema.optional(),
  priceCents: priceSchema.optional(),
  scheduledAt: scheduledAtSchema.optional(),
});
export type UpdatePostInput = z.output<typeof UpdatePostBodySchema>;

const COMMENT_MAX = 1000;

export const CommentBodySchema = z.object({
  text: multilineText()
    .trim()
    .min(1, message("Write a comment first."))
    .max(COMMENT_MAX, message("A comment can be at most 1000 characters.")),
  clientId: ClientIdSchema.optional().meta({
    description: "The client's id for the comment: sending it again stores nothing new",
  }),
});
