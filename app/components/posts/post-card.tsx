import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { PostView } from "@shared/contracts/posts";
import { LocalTime } from "~/components/local-time";
import { Avatar } from "~/components/shell/avatar";
import { formatCents } from "@shared/money";
import { useServerText } from "~/lib/server-text";
import { mediaCountsText } from "~/lib/counts";
import { feedImageSizes, srcSetOf } from "~/lib/scaled-images";
import { NameAndHandle } from "~/components/handle";
import { VideoPlayer } from "~/components/media/video-player";

export type { PostView };

/**
 * A post as the server presented it for this viewer. Open posts show their media; a locked post shows its text,
 * the blurred previews and what unlocks it, never a media URL (the server sends none). `actions` is the row of
 * buttons under the post (like, comment, bookmark, menu), supplied by the screen that owns the state; `unlock`
 * is what a post for sale offers to buy it (the screen's UnlockButton, for signed-in readers). `priority`: its
 * images are likely the page's largest paint (priorityPostId): fetched at once, first, rather than lazily; its
 * videos start loading (the post page's).
 */
export function PostCard({
  post,
  actions,
  headerExtra,
  unlock,
  priority = false,
}: {
  post: PostView;
  actions?: ReactNode;
  headerExtra?: ReactNode;
  unlock?: ReactNode;
  priority?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <article className="space-y-3 p-4" aria-labelledby={`post-${post.id}-author`} data-post-id={post.id}>
      {/* Wraps where the row is too narrow (a phone, the author's own post with its labels and menu): the name keeps its room. */}
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Link to={`/${post.author.username}`} className="flex min-w-[8rem] flex-1 items-center gap-3">
          <Avatar url={post.author.avatarUrl} name={post.author.name} />
          <span className="min-w-0">
            <NameAndHandle name={post.author.name} username={post.author.username} nameId={`post-${post.id}-author`} />
          </span>
        </Link>
        <Link to={`/post/${post.id}`} className="shrink-0 text-xs text-slate-600 hover:underline dark:text-slate-400">
          {post.publishedAt ? (
            <LocalTime iso={post.publishedAt} />
          ) : post.scheduledAt ? (
            <LocalTime iso={post.scheduledAt} />
          ) : null}
          {post.editedAt ? <span> · {t("edited")}</span> : null}
        </Link>
        {headerExtra}
      </header>
      {post.text ? (
        <p dir="auto" className="whitespace-pre-line break-words">
          {post.text}
        </p>
      ) : null}
      {post.media && post.media.length > 0 ? <MediaGrid media={post.media} priority={priority} /> : null}
      {post.lock ? <LockedCard post={post} unlock={unlock} /> : null}
      {actions}
    </article>
  );
}

/**
 * The post of a list whose images are the likely largest paint: the first of its first three posts with an
 * image open to the reader (further down, a phone's first screen ends). Only its images skip lazy loading: the
 * browser finds them in the HTML and asks for them before the scripts, instead of after layout.
 */
export const priorityPostId = (posts: readonly PostView[]) =>
  posts.slice(0, 3).find((post) => post.media?.some((item) => item.kind === "image"))?.id;

// React 18 does not know fetchPriority and would warn about the camel case: the attribute, as HTML spells it.
const HIGH_PRIORITY = { fetchpriority: "high" } as Record<string, string>;

function MediaGrid({ media, priority }: { media: NonNullable<PostView["media"]>; priority: boolean }) {
  return (
    <div className={`grid gap-1 overflow-hidden rounded-xl ${media.length > 1 ? "grid-cols-2" : ""}`}>
      {media.map((item) =>
        item.kind === "video" ? (
          <VideoPlayer key={item.id} video={item} eager={priority} className="w-full bg-black" />
        ) : (
          <img
            key={item.id}
            src={item.url}
            srcSet={srcSetOf(item.url, item.width, item.scaled)}
            sizes={item.scaled.length > 0 ? feedImageSizes(media.length > 1) : undefined}
            alt=""
            loading={priority ? "eager" : "lazy"}
            {...(priority ? HIGH_PRIORITY : null)}
            decoding="async"
            width={item.width ?? undefined}
            height={item.height ?? undefined}
            className="h-auto w-full bg-slate-100 object-cover dark:bg-slate-800"
          />
        ),
      )}
    </div>
  );
}

function LockedCard({ post, unlock }: { post: PostView; unlock: ReactNode }) {
  const { t, i18n } = useTranslation();
  const preview = post.previews.find((p) => p.previewUrl)?.previewUrl ?? null;
  // As the server wrote it, while the page hydrates: no currency formatter built then (app/lib/server-text.ts).
  const [reasonId, reason] = useServerText(`${post.lock}|${post.priceCents}|${i18n.language}`, () =>
    post.lock === "follow"
      ? t("Follow to see this post.")
      : post.lock === "subscribe"
        ? t("Subscribe to see this post.")
        : t("Unlock this post for {{price}}.", { price: formatCents(post.priceCents, i18n.language) }),
  );
  const images = post.previews.filter((p) => p.kind === "image").length;
  const videos = post.previews.length - images;
  return (
    <div className="relative flex aspect-[4/3] flex-col items-center justify-center gap-2 overflow-hidden rounded-xl bg-gradient-to-br from-slate-300 to-slate-400 text-slate-900 dark:from-slate-700 dark:to-slate-800 dark:text-slate-100">
      {preview ? (
        <img
          src={preview}
          alt=""
          loading="lazy"
          decoding="async"
          className="absolute inset-0 h-full w-full scale-110 object-cover blur-xl"
        />
      ) : null}
      <div className="relative flex flex-col items-center gap-2 rounded-xl bg-white/80 px-4 py-3 text-center dark:bg-slate-900/80">
        <svg viewBox="0 0 24 24" className="h-8 w-8" aria-hidden="true">
          <path
            fill="currentColor"
            d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 8V7a3 3 0 1 1 6 0v3z"
          />
        </svg>
        <span id={reasonId} className="text-sm font-medium">
          {reason}
        </span>
        {post.previews.length > 0 ? <span className="text-xs">{mediaCountsText(t, images, videos)}</span> : null}
        {post.lock !== "purchase" ? (
          <Link to={`/${post.author.username}`} className="btn-primary text-sm">
            {post.lock === "follow" ? t("Follow") : t("Subscribe")}
          </Link>
        ) : (
          unlock
        )}
      </div>
    </div>
  );
}
