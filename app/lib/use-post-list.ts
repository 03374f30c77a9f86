import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import type { PostView } from "@shared/contracts/posts";
import { outboxEntries, sendOrKeep, waitingChanges } from "~/lib/outbox";
import { useSession } from "~/lib/session";
import { soon } from "~/lib/idle";
import { applyWaiting, emptyTimeline, timelineReducer, type TimelineAction, type TimelineState } from "~/lib/timeline";
import { postPageShape } from "~/lib/api-shapes";

/**
 * A list of posts on screen (home, bookmarks, one post) with the timeline store's operations, plus the calls
 * behind them: like and bookmark change the screen at once and roll back if the server refuses (offline they
 * wait in the outbox); "load older"
 * fetches the page after `nextCursor` from `listPath` (/timeline, /bookmarks). A new `initial` (new loader data)
 * replaces the list.
 */
export function usePostList(initial: { posts: PostView[]; nextCursor: string | null }, listPath: string) {
  const { api } = useSession();
  const [state, dispatchNow] = useReducer(timelineReducer, undefined, (): TimelineState =>
    applyWaiting(emptyTimeline(initial.posts, initial.nextCursor), waitingChanges()),
  );
  // Posts that come from elsewhere (the server, a saved copy) show the likes and bookmarks still waiting to be sent.
  const dispatch = useCallback((action: TimelineAction) => {
    dispatchNow(action);
    if (
      action.type === "set" ||
      action.type === "loadOlder" ||
      action.type === "addNewPosts" ||
      action.type === "replace"
    )
      dispatchNow({ type: "applyWaiting", waiting: waitingChanges() });
  }, []);
  useEffect(() => {
    let active = true;
    // Only when something waits: an empty outbox (nearly always) renders the screen again for nothing.
    const cancel = soon(
      () =>
        void outboxEntries().then(() => {
          const waiting = waitingChanges();
          if (active && waiting.length > 0) dispatchNow({ type: "applyWaiting", waiting });
        }),
    );
    return () => {
      active = false;
      cancel();
    };
  }, []);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const loading = useRef(false);

  // New loader data (a revalidation, or a saved copy replaced by a newer one) replaces the list.
  const shown = useRef(initial);
  useEffect(() => {
    if (shown.current === initial) return;
    shown.current = initial;
    dispatch({ type: "set", posts: initial.posts, nextCursor: initial.nextCursor });
  }, [initial, dispatch]);

  // Offline (or behind actions made offline), a like or bookmark waits in the outbox and stays shown.
  const toggleLike = useCallback(
    (post: PostView) => {
      const liked = !post.liked;
      dispatch({ type: liked ? "like" : "unlike", id: post.id });
      const path = `/posts/${post.id}/like`;
      sendOrKeep(api, { kind: liked ? "like" : "unlike", postId: post.id }, (signal) =>
        liked ? api.post(path, {}, undefined, { signal }) : api.delete(path, { signal }),
      ).catch((error: unknown) => {
        console.error(`${liked ? "like" : "unlike"} failed`, error);
        dispatch({ type: liked ? "unlike" : "like", id: post.id });
      });
    },
    [api, dispatch],
  );

  const toggleBookmark = useCallback(
    (post: PostView) => {
      const bookmarked = !post.bookmarked;
      dispatch({ type: bookmarked ? "bookmark" : "unbookmark", id: post.id });
      const path = `/posts/${post.id}/bookmark`;
      sendOrKeep(api, { kind: bookmarked ? "bookmark" : "unbookmark", postId: post.id }, (signal) =>
        bookmarked ? api.post(path, {}, undefined, { signal }) : api.delete(path, { signal }),
      ).catch((error: unknown) => {
        console.error(`${bookmarked ? "bookmark" : "unbookmark"} failed`, error);
        dispatch({ type: bookmarked ? "unbookmark" : "bookmark", id: post.id });
      });
    },
    [api, dispatch],
  );

  const nextCursor = state.nextCursor;
  const loadOlder = useCallback(() => {
    if (!nextCursor || loading.current) return;
    loading.current = true;
    setLoadingOlder(true);
    api
      .get(`${listPath}?cursor=${encodeURIComponent(nextCursor)}`, postPageShape)
      .then((page) => dispatch({ type: "loadOlder", posts: page.posts, nextCursor: page.nextCursor }))
      .catch((error: unknown) => console.error(`GET ${listPath} failed`, error))
      .finally(() => {
        loading.current = false;
        setLoadingOlder(false);
      });
  }, [api, dispatch, listPath, nextCursor]);

  /** Spec §4 "replace by id": a post as the server now shows it (unlocked after a purchase…). */
  const replacePost = useCallback((post: PostView) => dispatch({ type: "replace", post }), [dispatch]);

  return { state, dispatch, toggleLike, toggleBookmark, replacePost, loadOlder, loadingOlder };
}
