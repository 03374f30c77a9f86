import { STORY_AUDIENCES, type StoryReel } from "@shared/contracts/stories";
import { array, boolean, nullable, number, object, oneOf, string, type Shape } from "@shared/shape";

/** The stories API's answers as the screens check them (shared/contracts/stories.ts). */
const authorShape = object({ id: number, username: string, name: string, avatarUrl: string });

export const storyShape = object({
  id: number,
  kind: oneOf("image", "video"),
  url: string,
  posterUrl: nullable(string),
  text: string,
  audience: oneOf(...STORY_AUDIENCES),
  durationMs: nullable(number),
  createdAt: string,
  expiresAt: string,
  highlightId: nullable(number),
  seen: boolean,
  liked: boolean,
  own: nullable(object({ viewCount: number, likeCount: number })),
});

export const reelShape: Shape<StoryReel> = object({ creator: authorShape, stories: array(storyShape) });

export const viewersShape = object({
  viewers: array(object({ user: authorShape, viewedAt: string, liked: boolean })),
  nextCursor: nullable(string),
  viewCount: number,
  likeCount: number,
});

export const highlightTitlesShape = object({ highlights: array(object({ id: number, title: string })) });
export const keptShape = object({ highlightId: number });
export const likedShape = object({ liked: boolean });
export const openedShape = object({ id: number });
