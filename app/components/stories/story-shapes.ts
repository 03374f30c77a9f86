// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type {
  HighlightTitles,
  StoryKept,
  StoryLiked,
  StoryReel,
  StoryView,
  StoryViewersPage,
} from "@shared/contracts/stories";
import { array, boolean, nullable, number, object, oneOf, orDefault, string, type Shape } from "@shared/shape";

export const storyShape: Shape<StoryView> = object({
  id: number,
  kind: oneOf("image", "video"),
  url: string,
  posterUrl: nullable(string),
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
  text: string,
  audience: oneOf("everyone", "followers", "subscribers"),
  durationMs: nullable(number),
  createdAt: string,
  expiresAt: string,
  highlightId: nullable(number),
  seen: boolean,
  liked: boolean,
  own: nullable(object({ viewCount: number, likeCount: number })),
});

export const reelShape: Shape<StoryReel> = object({
  creator: object({ id: number, username: string, name: string, avatarUrl: string }),
  stories: array(storyShape),
});

export const viewersShape: Shape<StoryViewersPage> = object({
  viewers: array(
    object({
      user: object({ id: number, username: string, name: string, avatarUrl: string }),
      viewedAt: string,
      liked: boolean,
    }),
  ),
  nextCursor: nullable(string),
  viewCount: number,
  likeCount: number,
});

export const highlightTitlesShape: Shape<HighlightTitles> = object({
  highlights: array(object({ id: number, title: string })),
});

export const keptShape: Shape<StoryKept> = object({ highlightId: number });

export const likedShape: Shape<StoryLiked> = object({ liked: boolean });
