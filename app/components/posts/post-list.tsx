import { memo, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { PostView } from "@shared/contracts/posts";
import { UnlockButton } from "~/components/money/unlock-button";
import { PostActions } from "~/components/posts/post-actions";
import { PostCard, priorityPostId } from "~/components/posts/post-card";
import { useWaitingPostIds } from "~/lib/outbox";

type RowProps = Pick<Parameters<typeof PostList>[0], "onLike" | "onBookmark" | "onUnlocked" | "headerExtra"> & {
  post: PostView;
  waiting: boolean;
  priority: boolean;
};

/**
 * One post of the list. Memoized: a screen re-rendering for something else (the updates summary answering after
 * load, a post liked further down) leaves the other posts alone, given the same callbacks (the screens keep them
 * stable). On a phone, re-rendering a feed's every post right after hydration was one long task.
 */
const PostRow = memo(function PostRow({
  post,
  onLike,
  onBookmark,
  onUnlocked,
  headerExtra,
  waiting,
  priority,
}: RowProps) {
  return (
    <li>
      <PostCard
        post={post}
        priority={priority}
        headerExtra={headerExtra?.(post)}
        unlock={post.viewer.canUnlock ? <UnlockButton post={post} onUnlocked={onUnlocked} /> : undefined}
        actions={<PostActions post={post} onLike={onLike} onBookmark={onBookmark} waiting={waiting} />}
      />
    </li>
  );
});

/**
 * Posts one under the other, each with its actions, and "Load older" at the end: a button (keyboard and
 * no-JavaScript friendly) that also fires by itself when it scrolls into view (infinite scroll).
 */
export function PostList({
  posts,
  onLike,
  onBookmark,
  onUnlocked,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  headerExtra,
}: {
  posts: PostView[];
  onLike(post: PostView): void;
  onBookmark(post: PostView): void;
  /** A post bought from the list, as the server now shows it (the screen replaces it by id). */
  onUnlocked(post: PostView): void;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder(): void;
  headerExtra?: (post: PostView) => React.ReactNode;
}) {
  const { t } = useTranslation();
  const sentinel = useRef<HTMLButtonElement>(null);
  const waiting = useWaitingPostIds();
  const priorityId = priorityPostId(posts);

  useEffect(() => {
    const button = sentinel.current;
    if (!button || !hasOlder || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onLoadOlder();
    });
    observer.observe(button);
    return () => observer.disconnect();
  }, [hasOlder, onLoadOlder]);

  return (
    <>
      <ol className="divide-y divide-slate-200 dark:divide-slate-800" aria-label={t("Posts")} data-post-list>
        {posts.map((post) => (
          <PostRow
            key={post.id}
            post={post}
            onLike={onLike}
            onBookmark={onBookmark}
            onUnlocked={onUnlocked}
            headerExtra={headerExtra}
            waiting={waiting.has(post.id)}
            priority={post.id === priorityId}
          />
        ))}
      </ol>
      {hasOlder ? (
        <div className="flex justify-center p-4">
          <button ref={sentinel} type="button" className="btn-secondary" onClick={onLoadOlder} disabled={loadingOlder}>
            {loadingOlder ? t("Loading…") : t("Load older posts")}
          </button>
        </div>
      ) : null}
    </>
  );
}
