import type { Updates } from "@shared/contracts/accounts";
import type { PostView } from "@shared/contracts/posts";
import type { CurrentUser } from "~/lib/session";
import { array, boolean, nullable, number, object, oneOf, orDefault, string, type Shape } from "@shared/shape";

/** The answers the shell and the feeds rely on; each is typed as the contract it checks, so none can drift. */

/** A photo's smaller copies (none in answers stored before they existed). */
export const scaledImagesShape = orDefault(array(object({ width: number, url: string })), () => []);

export const currentUserShape: Shape<CurrentUser> = object({
  userId: number,
  username: string,
  avatarUrl: string,
  isCreator: boolean,
  isEmailVerified: boolean,
});

export const updatesAnswerShape: Shape<{ updates: Updates }> = object({
  updates: object({ home: boolean, notifications: number, messages: number, balance: boolean }),
});

const mediaKind = oneOf("image", "video");

/** A post's fields, for answers that add their own to it (/posts/processing). */
export const postFields = {
  id: number,
  text: string,
  audience: oneOf("everyone", "followers", "subscribers"),
  priceCents: number,
  status: oneOf("processing", "scheduled", "published"),
  publishedAt: nullable(string),
  scheduledAt: nullable(string),
  editedAt: nullable(string),
  author: object({ id: number, username: string, name: string, avatarUrl: string }),
  likeCount: number,
  commentCount: number,
  liked: boolean,
  bookmarked: boolean,
  isOwn: boolean,
  lock: nullable(oneOf("follow", "subscribe", "purchase")),
  viewer: object({
    canEdit: boolean,
    canDelete: boolean,
    canLike: boolean,
    canComment: boolean,
    canBookmark: boolean,
    canTip: boolean,
    canUnlock: boolean,
    canReport: boolean,
  }),
  mediaCount: number,
  media: nullable(
    array(object({ id: number, kind: mediaKind, url: string, posterUrl: nullable(string), width: nullable(number), height: nullable(number), scaled: scaledImagesShape })),
  ),
  previews: array(object({ kind: mediaKind, previewUrl: nullable(string) })),
};

export const postShape: Shape<PostView> = object(postFields);

/** A keyset page of posts: /timeline, /bookmarks, a profile's tabs, /scheduled, /processing. */
export const postPageShape: Shape<{ posts: PostView[]; nextCursor: string | null }> = object({ posts: array(postShape), nextCursor: nullable(string) });

/** A confirmation the page shows as is (a report filed, a test notification sent). */
export const messageAnswerShape: Shape<{ message: string }> = object({ message: string });
