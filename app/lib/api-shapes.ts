// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { Me, Updates } from "@shared/contracts/session";
import type { PostView, ScaledImage } from "@shared/contracts/posts";
import { array, boolean, nullable, number, object, oneOf, orDefault, string, type Shape } from "@shared/shape";

export const currentUserShape: Shape<Me> = object({
  userId: number,
  avatarUrl: string,
  username: string,
  isCreator: boolean,
  isEmailVerified: boolean,
});

export const updatesAnswerShape: Shape<{ updates: Updates }> = object({
  updates: object({ home: boolean, notifications: number, messages: number, balance: boolean }),
});

const scaledImagesShape: Shape<ScaledImage[]> = orDefault(array(object({ width: number, url: string })), () => []);

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
    array(
      object({
        id: number,
        kind: oneOf("image", "video"),
        url: string,
        posterUrl: nullable(string),
        width: nullable(number),
        height: nullable(number),
        scaled: scaledImagesShape,
        renditions: orDefault(
          array(
            object({
              name: oneOf("360p", "720p"),
              url: string,
              type: string,
              width: number,
              height: number,
              bitrate: number,
            }),
          ),
          () => [],
        ),
        hlsUrl: orDefault(nullable(string), () => null),
      }),
    ),
  ),
  previews: array(object({ kind: oneOf("image", "video"), previewUrl: nullable(string) })),
};

export const postShape: Shape<PostView> = object(postFields);

export const postPageShape: Shape<{ posts: PostView[]; nextCursor: string | null }> = object({
  posts: array(postShape),
  nextCursor: nullable(string),
});

export const messageAnswerShape: Shape<{ message: string }> = object({ message: string });
