import { z } from "@hono/zod-openapi";
import { AUDIENCES } from "../domain/posts/access";

export const ErrorSchema = z
  .object({
    message: z.string().openapi({ example: "The provided credentials are incorrect" }),
    errors: z.record(z.string(), z.array(z.string())),
  })
  .openapi("Error");

export const MessageSchema = z.object({ message: z.string() }).openapi("Message");

export const MeSchema = z
  .object({
    userId: z.number().int(),
    avatarUrl: z.string(),
    username: z.string(),
    isCreator: z.boolean(),
    isEmailVerified: z.boolean(),
  })
  .openapi("Me");

export const AuthResultSchema = z.object({ token: z.string(), user: MeSchema }).openapi("AuthResult");

const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: ErrorSchema } } });

/** The error responses each kind of route can give, for the OpenAPI document. */
export const errorResponses = {
  401: errorResponse("Not signed in, or the session has ended"),
  402: errorResponse("The wallet cannot cover the payment: \"You need to fund your wallet!\""),
  403: errorResponse("Forbidden, or a link that is invalid or has expired"),
  409: errorResponse("The state changed: already done, or another request is open"),
  413: errorResponse("Request body over 64 KiB"),
  415: errorResponse("Body not sent as application/json"),
  422: errorResponse("Invalid input; `errors` names each field"),
  429: errorResponse("Too many attempts; see Retry-After"),
} as const;

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

/** What the viewer may do with a post (worker/domain/policies/posts.ts): the buttons a screen shows. */
export const PostPermissionsSchema = z
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
  .openapi("PostPermissions");

/** The one presented post (worker/domain/posts/present-posts.ts): media URLs only when open, else previews. */
export const PostSchema = z
  .object({
    id: z.number().int(),
    text: z.string(),
    audience: z.enum(AUDIENCES),
    priceCents: z.number().int(),
    status: z.enum(["processing", "scheduled", "published"]),
    publishedAt: z.string().nullable(),
    scheduledAt: z.string().nullable(),
    editedAt: z.string().nullable(),
    author: z.object({ id: z.number().int(), username: z.string(), name: z.string(), avatarUrl: z.string() }),
    likeCount: z.number().int(),
    commentCount: z.number().int(),
    liked: z.boolean(),
    bookmarked: z.boolean(),
    isOwn: z.boolean(),
    lock: z.enum(["follow", "subscribe", "purchase"]).nullable(),
    viewer: PostPermissionsSchema,
    mediaCount: z.number().int(),
    media: z
      .array(z.object({ id: z.number().int(), kind: z.enum(["image", "video"]), url: z.string(), posterUrl: z.string().nullable(), width: z.number().int().nullable(), height: z.number().int().nullable() }))
      .nullable(),
    previews: z.array(z.object({ kind: z.enum(["image", "video"]), previewUrl: z.string().nullable() })),
  })
  .openapi("Post");

export const PostPageSchema = z.object({ posts: z.array(PostSchema), nextCursor: z.string().nullable() }).openapi("PostPage");
