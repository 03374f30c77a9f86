import { describe, expect, it } from "vitest";
import { decodeCursor } from "../../worker/domain/shared/cursor";
import type { PostView } from "@shared/contracts/posts";
import {
  addNewPosts,
  applyWaiting,
  emptyTimeline,
  loadOlder,
  newestCursor,
  removePost,
  replacePost,
  setBookmarked,
  setLiked,
  setPosts,
  showNewPosts,
  timelineReducer,
  type TimelineState,
} from "../../app/lib/timeline";
import { samplePost } from "../support/sample-post";

/** The sample post under another id, each id a second newer than the one before. */
const post = (id: number, overrides: Partial<PostView> = {}): PostView => ({
  ...(structuredClone(samplePost) as PostView),
  id,
  publishedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString(),
  ...overrides,
});

const ids = (posts: PostView[]) => posts.map((p) => p.id);

describe("timeline store (spec §4)", () => {
  it("set replaces the posts and the cursor", () => {
    const state = setPosts(emptyTimeline([post(1)], "a"), [post(3), post(2)], "b");
    expect(ids(state.posts)).toEqual([3, 2]);
    expect(state.nextCursor).toBe("b");
  });

  it("load older appends at the end without repeating a post", () => {
    const state = loadOlder(emptyTimeline([post(5), post(4)], "c1"), [post(4), post(3), post(2)], null);
    expect(ids(state.posts)).toEqual([5, 4, 3, 2]);
    expect(state.nextCursor).toBeNull();
  });

  it("add new posts puts them at the front of the pending list, not the timeline", () => {
    let state = emptyTimeline([post(5)]);
    state = addNewPosts(state, [post(7), post(6)]);
    state = addNewPosts(state, [post(9), post(8), post(7), post(5)]);
    expect(ids(state.newPosts)).toEqual([9, 8, 7, 6]);
    expect(ids(state.posts)).toEqual([5]);
  });

  it("show new posts moves the pending list to the front of the timeline and clears it", () => {
    const state = showNewPosts({ posts: [post(5), post(4)], newPosts: [post(7), post(6)], nextCursor: "x" });
    expect(ids(state.posts)).toEqual([7, 6, 5, 4]);
    expect(state.newPosts).toEqual([]);
    expect(state.nextCursor).toBe("x");
  });

  it("remove by id drops the post from the timeline and the pending list", () => {
    const state = removePost({ posts: [post(2), post(1)], newPosts: [post(3)], nextCursor: null }, 2);
    expect(ids(state.posts)).toEqual([1]);
    expect(removePost(state, 3).newPosts).toEqual([]);
  });

  it("like and unlike by id change the flag and the count once", () => {
    let state: TimelineState = emptyTimeline([post(1, { likeCount: 4 }), post(2)]);
    state = setLiked(state, 1, true);
    state = setLiked(state, 1, true);
    expect(state.posts[0]).toMatchObject({ liked: true, likeCount: 5 });
    expect(state.posts[1]).toMatchObject({ liked: false, likeCount: 0 });
    state = setLiked(state, 1, false);
    expect(state.posts[0]).toMatchObject({ liked: false, likeCount: 4 });
  });

  it("bookmark and unbookmark by id", () => {
    let state = emptyTimeline([post(1)]);
    state = setBookmarked(state, 1, true);
    expect(state.posts[0]!.bookmarked).toBe(true);
    state = setBookmarked(state, 1, false);
    expect(state.posts[0]!.bookmarked).toBe(false);
  });

  it("replace by id swaps in the updated post in place", () => {
    const state = replacePost(
      emptyTimeline([post(3), post(2), post(1)]),
      post(2, { text: "edited", editedAt: "2026-02-01T00:00:00.000Z" }),
    );
    expect(ids(state.posts)).toEqual([3, 2, 1]);
    expect(state.posts[1]!.text).toBe("edited");
  });

  it("the reducer dispatches every operation and never mutates the state", () => {
    const start = Object.freeze({
      posts: Object.freeze([post(2)]) as PostView[],
      newPosts: Object.freeze([]) as unknown as PostView[],
      nextCursor: null,
    });
    let state = timelineReducer(start, { type: "addNewPosts", posts: [post(3)] });
    state = timelineReducer(state, { type: "showNewPosts" });
    state = timelineReducer(state, { type: "like", id: 3 });
    state = timelineReducer(state, { type: "bookmark", id: 2 });
    state = timelineReducer(state, { type: "loadOlder", posts: [post(1)], nextCursor: null });
    state = timelineReducer(state, { type: "remove", id: 1 });
    expect(state.posts.map((p) => [p.id, p.liked, p.bookmarked])).toEqual([
      [3, true, false],
      [2, false, true],
    ]);
    expect(ids(start.posts)).toEqual([2]);
  });

  it("new posts start after the newest post held, pending first", () => {
    expect(newestCursor(emptyTimeline())).toBeNull();
    expect(decodeCursor(newestCursor(emptyTimeline([post(4), post(3)]))!)).toEqual({ at: post(4).publishedAt, id: 4 });
    expect(decodeCursor(newestCursor({ posts: [post(4)], newPosts: [post(6)], nextCursor: null })!)).toEqual({
      at: post(6).publishedAt,
      id: 6,
    });
  });
});

describe("likes and bookmarks still waiting in the outbox", () => {
  it("are applied in order over posts from the server or a saved copy, counts following, other posts untouched", () => {
    const state = emptyTimeline([post(1, { likeCount: 4 }), post(2, { liked: true, likeCount: 1 }), post(3)]);
    const next = applyWaiting(state, [
      { kind: "like", postId: 1 },
      { kind: "unlike", postId: 1 },
      { kind: "like", postId: 1 },
      { kind: "unlike", postId: 2 },
      { kind: "bookmark", postId: 2 },
      { kind: "like", postId: 99 },
    ]);
    expect(next.posts.map(({ id, liked, likeCount, bookmarked }) => ({ id, liked, likeCount, bookmarked }))).toEqual([
      { id: 1, liked: true, likeCount: 5, bookmarked: false },
      { id: 2, liked: false, likeCount: 0, bookmarked: true },
      { id: 3, liked: false, likeCount: 0, bookmarked: false },
    ]);
    expect(next.posts[2]).toBe(state.posts[2]);
    // The same changes again (a second list rebuilt on top) change nothing more.
    expect(applyWaiting(next, [{ kind: "like", postId: 1 }]).posts[0]!.likeCount).toBe(5);
    expect(
      timelineReducer(state, { type: "applyWaiting", waiting: [{ kind: "like", postId: 3 }] }).posts[2]!.liked,
    ).toBe(true);
  });
});
