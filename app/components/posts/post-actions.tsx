import { Link } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PostView } from "@shared/contracts/posts";
import { EarlyForm } from "~/components/early-form";
import { TipButton } from "~/components/money/tip-button";

const ICONS = {
  like: "M12 21s-7.5-4.6-9.5-9.3C1.2 8.4 3.3 5 6.8 5c2 0 3.3 1 4.2 2.3h2C13.9 6 15.2 5 17.2 5c3.5 0 5.6 3.4 4.3 6.7C19.5 16.4 12 21 12 21z",
  comment: "M4 4h16a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H9l-5 4V5a1 1 0 0 1 1-1z",
  bookmark: "M6 3h12a1 1 0 0 1 1 1v17l-7-4-7 4V4a1 1 0 0 1 1-1z",
  tip: "M12 3v18M16.5 7.5c0-1.7-2-3-4.5-3s-4.5 1.3-4.5 3 2 2.7 4.5 3 4.5 1.3 4.5 3-2 3-4.5 3-4.5-1.3-4.5-3",
  share:
    "M18 16a3 3 0 0 0-2.4 1.2l-6.7-3.4a3 3 0 0 0 0-1.6l6.7-3.4A3 3 0 1 0 15 7l-6.7 3.4a3 3 0 1 0 0 3.2L15 17a3 3 0 1 0 3-1z",
} as const;

/** Sized, stroked and (in a pressed toggle) filled by `.post-action > svg` (app/tailwind.css). */
function ActionIcon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path d={ICONS[name]} />
    </svg>
  );
}

/**
 * The row under a post: like (with its count), comments (opens /post/{id}), bookmark, a tip to the author and
 * share. Like and bookmark are forms the browser posts to /post/{id} until the page has hydrated; tip and share
 * need the page's JavaScript and look disabled until then (`data-needs-js`). Which of them work is the post's `viewer` permissions (the server's policy), never re-derived here. Like
 * and bookmark are toggle buttons (aria-pressed) whose names stay put; each visible count is part of its control's
 * name. The screen owns the state (onLike,
 * onBookmark), so the change shows at once and is rolled back by the screen if the server refuses; made offline, it
 * stays, marked as waiting for the network.
 */
export function PostActions({
  post,
  onLike,
  onBookmark,
  waiting = false,
}: {
  post: PostView;
  onLike(post: PostView): void;
  onBookmark(post: PostView): void;
  /** A like or bookmark of this post waits in the outbox for the network (app/lib/outbox.ts). */
  waiting?: boolean;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);

  async function share() {
    const url = new URL(`/post/${post.id}`, window.location.origin).toString();
    try {
      if (navigator.share) await navigator.share({ url });
      else {
        await navigator.clipboard.writeText(url);
        setCopied(true);
        window.setTimeout(() => setCopied(false), 2000);
      }
    } catch (error) {
      console.info("share cancelled", error);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-1" data-post-actions>
      <EarlyForm action={`/post/${post.id}`} className="contents" onSubmit={() => onLike(post)}>
        <button
          type="submit"
          name="intent"
          value={post.liked ? "unlike" : "like"}
          className={post.liked ? "post-action text-rose-600 dark:text-rose-400" : "post-action"}
          aria-pressed={post.liked}
          disabled={!post.viewer.canLike}
        >
          <ActionIcon name="like" />
          <span className="sr-only">{t("Like")}</span>
          <span data-like-count>{post.likeCount}</span>
        </button>
      </EarlyForm>
      {post.lock === null ? (
        <Link to={`/post/${post.id}#comments`} className="post-action">
          <ActionIcon name="comment" />
          <span className="sr-only">{t("Comments")}</span>
          <span>{post.commentCount}</span>
        </Link>
      ) : null}
      {post.viewer.canBookmark ? (
        <EarlyForm action={`/post/${post.id}`} className="contents" onSubmit={() => onBookmark(post)}>
          <button
            type="submit"
            name="intent"
            value={post.bookmarked ? "unbookmark" : "bookmark"}
            className={post.bookmarked ? "post-action text-brand-600 dark:text-brand-300" : "post-action"}
            aria-pressed={post.bookmarked}
            aria-label={t("Bookmark")}
          >
            <ActionIcon name="bookmark" />
          </button>
        </EarlyForm>
      ) : null}
      {post.viewer.canTip ? (
        <TipButton target={{ postId: post.id }} creatorName={post.author.name} className="post-action">
          <ActionIcon name="tip" />
          <span>{t("Send a tip")}</span>
        </TipButton>
      ) : null}
      <button type="button" className="post-action" aria-label={t("Share")} data-needs-js onClick={() => void share()}>
        <ActionIcon name="share" />
      </button>
      <span role="status" className="text-xs text-slate-600 dark:text-slate-400">
        {copied ? t("Link copied.") : ""}
      </span>
      {waiting ? (
        <span data-testid="post-waiting" className="text-xs italic text-slate-600 dark:text-slate-400">
          {t("Waiting for the network")}
        </span>
      ) : null}
    </div>
  );
}
