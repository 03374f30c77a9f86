import type { StoryReel } from "@shared/contracts/stories";

/** Where the viewer is: which creator's reel, which story in it. */
export interface StoryPosition {
  reel: number;
  story: number;
}

/** A reel starts at its first unseen story (all seen: the first). */
export const startOf = (reel: StoryReel): number =>
  Math.max(
    0,
    reel.stories.findIndex((story) => !story.seen),
  );

/**
 * The next position: the next story, else the next reel's start; "more" when the next reel is not loaded yet
 * but more creators are queued; "end" after the last.
 */
export function nextPosition(reels: StoryReel[], at: StoryPosition, queued: number): StoryPosition | "more" | "end" {
  if (at.story + 1 < reels[at.reel]!.stories.length) return { reel: at.reel, story: at.story + 1 };
  if (at.reel + 1 < reels.length) return { reel: at.reel + 1, story: startOf(reels[at.reel + 1]!) };
  return queued > 0 ? "more" : "end";
}

/** The previous story, else the previous reel's last; at the very first, the same story again. */
export function previousPosition(reels: StoryReel[], at: StoryPosition): StoryPosition {
  if (at.story > 0) return { reel: at.reel, story: at.story - 1 };
  if (at.reel > 0) return { reel: at.reel - 1, story: reels[at.reel - 1]!.stories.length - 1 };
  return at;
}

/** A swipe sideways moves a whole creator: to the next reel's start, or the previous reel's start. */
export function otherReel(
  reels: StoryReel[],
  at: StoryPosition,
  direction: 1 | -1,
  queued: number,
): StoryPosition | "more" | "end" | null {
  const target = at.reel + direction;
  if (target < 0) return null;
  if (target < reels.length) return { reel: target, story: startOf(reels[target]!) };
  return queued > 0 ? "more" : "end";
}
