import { describe, expect, it } from "vitest";
import type { StoryReel } from "@shared/contracts/stories";
import { nextPosition, otherReel, previousPosition, startOf } from "../../app/components/stories/story-position";

const reel = (id: number, seen: boolean[]): StoryReel => ({
  creator: { id, username: `c${id}`, name: `C${id}`, avatarUrl: "" },
  stories: seen.map((s, index) => ({
    id: id * 10 + index,
    kind: "image",
    url: "",
    posterUrl: null,
    renditions: [],
    hlsUrl: null,
    text: "",
    audience: "everyone",
    durationMs: null,
    createdAt: "",
    expiresAt: "",
    highlightId: null,
    seen: s,
    liked: false,
    own: null,
  })),
});

describe("moving through stories", () => {
  const reels = [reel(1, [true, false, false]), reel(2, [true, true])];

  it("starts a creator at the first unseen story, or the first when all are seen", () => {
    expect(startOf(reels[0]!)).toBe(1);
    expect(startOf(reels[1]!)).toBe(0);
  });

  it("goes on story by story, then to the next creator's start, then asks for more or ends", () => {
    expect(nextPosition(reels, { reel: 0, story: 1 }, 0)).toEqual({ reel: 0, story: 2 });
    expect(nextPosition([reels[0]!, reel(3, [true, false])], { reel: 0, story: 2 }, 0)).toEqual({ reel: 1, story: 1 });
    expect(nextPosition(reels, { reel: 1, story: 1 }, 2)).toBe("more");
    expect(nextPosition(reels, { reel: 1, story: 1 }, 0)).toBe("end");
  });

  it("goes back story by story, into the previous creator's last, and stays on the very first", () => {
    expect(previousPosition(reels, { reel: 0, story: 2 })).toEqual({ reel: 0, story: 1 });
    expect(previousPosition(reels, { reel: 1, story: 0 })).toEqual({ reel: 0, story: 2 });
    expect(previousPosition(reels, { reel: 0, story: 0 })).toEqual({ reel: 0, story: 0 });
  });

  it("swipes a whole creator at a time", () => {
    expect(otherReel(reels, { reel: 0, story: 2 }, 1, 0)).toEqual({ reel: 1, story: 0 });
    expect(otherReel(reels, { reel: 1, story: 1 }, -1, 0)).toEqual({ reel: 0, story: 1 });
    expect(otherReel(reels, { reel: 0, story: 0 }, -1, 0)).toBeNull();
    expect(otherReel(reels, { reel: 1, story: 0 }, 1, 3)).toBe("more");
    expect(otherReel(reels, { reel: 1, story: 0 }, 1, 0)).toBe("end");
  });
});
