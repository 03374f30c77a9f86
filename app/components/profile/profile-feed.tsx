import { Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ProfilePostsPage, ProfileTab } from "@shared/contracts/posts";
import { UnlockButton } from "~/components/money/unlock-button";
import { LoadMoreButton } from "~/components/load-more-button";
import { PostCard, priorityPostId, type PostView } from "~/components/posts/post-card";
import { useSession } from "~/lib/session";
import { postPageShape } from "~/lib/api-shapes";
import { PROFILE_TILE_SIZES, srcSetOf } from "~/lib/scaled-images";

/**
 * The Posts and Media tabs of a profile, each paged with "Load more". The Posts tab starts from the page the
 * loader read; the Media tab loads when first opened. Both start over whenever the loader data changes (after
 * following or subscribing, locks change).
 */
export function ProfileFeed({ username, firstPage }: { username: string; firstPage: ProfilePostsPage }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [tab, setTab] = useState<ProfileTab>("posts");
  const [pages, setPages] = useState<Partial<Record<ProfileTab, ProfilePostsPage>>>({ posts: firstPage });
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const openTab = useRef(tab);
  openTab.current = tab;

  // New loader data (the viewer followed, subscribed, cancelled): locks may have changed, so start over.
  useEffect(() => {
    setPages({ posts: firstPage });
    if (openTab.current === "media") void load("media", null);
    // load only depends on state setters and the api client; rerunning it on their identity would refetch in a loop.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstPage]);

  async function load(which: ProfileTab, cursor: string | null) {
    setLoading(true);
    setFailed(false);
    try {
      const query = new URLSearchParams({ tab: which, ...(cursor ? { cursor } : {}) });
      const page = await api.get(`/users/${encodeURIComponent(username)}/posts?${query}`, postPageShape);
      setPages((current) => {
        const before = cursor ? (current[which]?.posts ?? []) : [];
        return { ...current, [which]: { posts: [...before, ...page.posts], nextCursor: page.nextCursor } };
      });
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }

  /** A post bought here: shown unlocked in place, in whichever tab holds it. */
  function replacePost(updated: PostView) {
    setPages((current) => {
      const next: typeof current = {};
      for (const [which, list] of Object.entries(current) as [ProfileTab, ProfilePostsPage][]) {
        next[which] = { ...list, posts: list.posts.map((post) => (post.id === updated.id ? updated : post)) };
      }
      return next;
    });
  }

  function open(which: ProfileTab) {
    setTab(which);
    if (!pages[which]) void load(which, null);
  }

  const page = pages[tab];
  const priorityId = page ? priorityPostId(page.posts) : undefined;
  const tabs: { id: ProfileTab; label: string }[] = [
    { id: "posts", label: t("Posts") },
    { id: "media", label: t("Media") },
  ];
  return (
    <section className="mt-4 border-t border-slate-200 dark:border-slate-800">
      <div
        role="tablist"
        aria-label={t("Profile content")}
        className="flex border-b border-slate-200 dark:border-slate-800"
      >
        {tabs.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={`profile-tab-${item.id}`}
            aria-selected={tab === item.id}
            aria-controls="profile-tab-panel"
            onClick={() => open(item.id)}
            className={`flex-1 px-4 py-3 text-sm font-semibold ${tab === item.id ? "border-b-2 border-brand-600 text-brand-700 dark:text-brand-300" : "text-slate-600 hover:bg-slate-50 dark:text-slate-400 dark:hover:bg-slate-900"}`}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div id="profile-tab-panel" role="tabpanel" aria-labelledby={`profile-tab-${tab}`}>
        {page && page.posts.length === 0 ? (
          <p className="p-4 text-slate-600 dark:text-slate-400">
            {tab === "posts" ? t("No posts yet.") : t("No media yet.")}
          </p>
        ) : null}
        {page && tab === "posts" ? (
          <div className="divide-y divide-slate-200 dark:divide-slate-800">
            {page.posts.map((post) => (
              <PostCard
                key={post.id}
                post={post}
                priority={post.id === priorityId}
                unlock={post.viewer.canUnlock ? <UnlockButton post={post} onUnlocked={replacePost} /> : undefined}
              />
            ))}
          </div>
        ) : null}
        {page && tab === "media" ? <MediaGallery posts={page.posts} /> : null}
        {failed ? (
          <p role="alert" className="p-4 text-sm text-red-700 dark:text-red-400">
            {t("Could not load more. Please try again.")}
          </p>
        ) : null}
        {loading ? <p className="p-4 text-center text-sm text-slate-500">{t("Loading…")}</p> : null}
        {page?.nextCursor && !loading ? <LoadMoreButton onClick={() => void load(tab, page.nextCursor)} /> : null}
      </div>
    </section>
  );
}

/** Every item of the posts as a grid: open media as thumbnails, locked media as blurred tiles with a lock. */
function MediaGallery({ posts }: { posts: PostView[] }) {
  const { t } = useTranslation();
  const tiles = posts.flatMap((post) =>
    post.media
      ? post.media.map((item) => ({
          key: `m${item.id}`,
          postId: post.id,
          src: item.kind === "video" ? item.posterUrl : item.url,
          // A photo's copy 640 pixels wide fills a tile (a third of the column) on any screen: not the original.
          srcSet: item.kind === "image" ? srcSetOf(item.url, item.width, item.scaled) : undefined,
          locked: false,
          video: item.kind === "video",
        }))
      : post.previews.map((item, index) => ({
          key: `p${post.id}-${index}`,
          postId: post.id,
          src: item.previewUrl,
          srcSet: undefined,
          locked: true,
          video: item.kind === "video",
        })),
  );
  return (
    <ul className="grid grid-cols-3 gap-0.5 p-0.5">
      {tiles.map((tile) => (
        <li key={tile.key} className="relative aspect-square overflow-hidden bg-slate-200 dark:bg-slate-800">
          <Link
            to={`/post/${tile.postId}`}
            className="block h-full w-full"
            aria-label={tile.locked ? t("Locked media") : tile.video ? t("Video") : t("Photo")}
          >
            {tile.src ? (
              <img
                src={tile.src}
                srcSet={tile.srcSet}
                sizes={tile.srcSet ? PROFILE_TILE_SIZES : undefined}
                alt=""
                loading="lazy"
                className={`h-full w-full object-cover ${tile.locked ? "scale-110 blur-md" : ""}`}
              />
            ) : null}
            {tile.locked ? (
              <span className="absolute inset-0 flex items-center justify-center bg-black/20 text-white">
                <svg viewBox="0 0 24 24" className="h-7 w-7" aria-hidden="true">
                  <path
                    fill="currentColor"
                    d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 8V7a3 3 0 1 1 6 0v3z"
                  />
                </svg>
              </span>
            ) : null}
          </Link>
        </li>
      ))}
    </ul>
  );
}
