import type { PostView } from "@shared/contracts/posts";
import { encodeCursor } from "@shared/cursor";

/**
 * The client timeline of spec §3/§4: `posts` shown, `newPosts` pending behind "Show N new posts", and where the
 * next older page starts. Every operation of spec §4 is a pure function from state to state, so the screens
 * (home, bookmarks, one post) share them through `timelineReducer` and the unit tests check them directly.
 */
export interface TimelineState {
  posts: PostView[];
  newPosts: PostView[];
  nextCursor: string | null;
}

export const emptyTimeline = (posts: PostView[] = [], nextCursor: string | null = null): TimelineState => ({
  posts,
  newPosts: [],
  nextCursor,
});

const without = (posts: PostView[], ids: Set<number>) => posts.filter((post) => !ids.has(post.id));
const idsOf = (posts: PostView[]) => new Set(posts.map((post) => post.id));

/** set: replaces the shown posts (a fresh first page); pending ones stay pending. */
export const setPosts = (state: TimelineState, posts: PostView[], nextCursor: string | null): TimelineState => ({
  posts,
  newPosts: without(state.newPosts, idsOf(posts)),
  nextCursor,
});

/** load older: appends a page at the end; a post already shown is not repeated. */
export const loadOlder = (state: TimelineState, posts: PostView[], nextCursor: string | null): TimelineState => ({
  ...state,
  posts: [...state.posts, ...without(posts, idsOf(state.posts))],
  nextCursor,
});

/** add new posts: to the front of the pending list, skipping any already shown or pending. */
export const addNewPosts = (state: TimelineState, posts: PostView[]): TimelineState => {
  const known = new Set([...idsOf(state.posts), ...idsOf(state.newPosts)]);
  return { ...state, newPosts: [...without(posts, known), ...state.newPosts] };
};

/** show new posts: the pending list moves to the front of the timeline and is cleared. */
export const showNewPosts = (state: TimelineState): TimelineState => ({
  ...state,
  posts: [...state.newPosts, ...without(state.posts, idsOf(state.newPosts))],
  newPosts: [],
});

/** remove by id: from the timeline and from the pending list. */
export const removePost = (state: TimelineState, id: number): TimelineState => ({
  ...state,
  posts: state.posts.filter((post) => post.id !== id),
  newPosts: state.newPosts.filter((post) => post.id !== id),
});

const update = (state: TimelineState, id: number, change: (post: PostView) => PostView): TimelineState => ({
  ...state,
  posts: state.posts.map((post) => (post.id === id ? change(post) : post)),
  newPosts: state.newPosts.map((post) => (post.id === id ? change(post) : post)),
});

/** like / unlike by id; the count follows, and liking a liked post changes nothing. */
export const setLiked = (state: TimelineState, id: number, liked: boolean): TimelineState =>
  update(state, id, (post) =>
    post.liked === liked ? post : { ...post, liked, likeCount: Math.max(0, post.likeCount + (liked ? 1 : -1)) },
  );

/** bookmark / unbookmark by id. */
export const setBookmarked = (state: TimelineState, id: number, bookmarked: boolean): TimelineState =>
  update(state, id, (post) => (post.bookmarked === bookmarked ? post : { ...post, bookmarked }));

/** replace by id with the updated post (an edit, or the server's answer after a change). */
export const replacePost = (state: TimelineState, updated: PostView): TimelineState =>
  update(state, updated.id, () => updated);

/** A like or bookmark made but not yet applied by the server (app/lib/outbox.ts), oldest first. */
export type WaitingChange = { kind: "like" | "unlike" | "bookmark" | "unbookmark"; postId: number };

/**
 * apply waiting changes: posts as the server (or a saved copy) last said, with the likes and bookmarks that wait in
 * the outbox applied in order, so a list rebuilt from older data still shows what the person did.
 */
export const applyWaiting = (state: TimelineState, waiting: readonly WaitingChange[]): TimelineState =>
  waiting.reduce(
    (next, change) =>
      change.kind === "like" || change.kind === "unlike"
        ? setLiked(next, change.postId, change.kind === "like")
        : setBookmarked(next, change.postId, change.kind === "bookmark"),
    state,
  );

export type TimelineAction =
  | { type: "set"; posts: PostView[]; nextCursor: string | null }
  | { type: "loadOlder"; posts: PostView[]; nextCursor: string | null }
  | { type: "addNewPosts"; posts: PostView[] }
  | { type: "showNewPosts" }
  | { type: "remove"; id: number }
  | { type: "like" | "unlike"; id: number }
  | { type: "bookmark" | "unbookmark"; id: number }
  | { type: "replace"; post: PostView }
  | { type: "applyWaiting"; waiting: readonly WaitingChange[] };

export function timelineReducer(state: TimelineState, action: TimelineAction): TimelineState {
  switch (action.type) {
    case "set":
      return setPosts(state, action.posts, action.nextCursor);
    case "loadOlder":
      return loadOlder(state, action.posts, action.nextCursor);
    case "addNewPosts":
      return addNewPosts(state, action.posts);
    case "showNewPosts":
      return showNewPosts(state);
    case "remove":
      return removePost(state, action.id);
    case "like":
    case "unlike":
      return setLiked(state, action.id, action.type === "like");
    case "bookmark":
    case "unbookmark":
      return setBookmarked(state, action.id, action.type === "bookmark");
    case "replace":
      return replacePost(state, action.post);
    case "applyWaiting":
      return applyWaiting(state, action.waiting);
  }
}

/** Where "new posts" start: after the newest post the client holds, pending or shown; null when it holds none. */
export function newestCursor(state: TimelineState): string | null {
  const newest = state.newPosts[0] ?? state.posts[0];
  return newest?.publishedAt ? encodeCursor(newest.publishedAt, newest.id) : null;
}
