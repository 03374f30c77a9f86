import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { suggestProfiles } from "@worker/domain/search/suggest-profiles";
import { timelinePageOf, timelineRead } from "@worker/domain/timeline/get-timeline";
import { liveNowRead } from "@worker/domain/live/streams";
import { storiesBarRead } from "@worker/domain/stories/stories";
import { readTogether } from "@worker/domain/shared/reads";
import { StoriesBar, type LiveNowItem } from "~/components/stories/stories-bar";
import type { StoriesBarItem } from "@shared/contracts/stories";
import type { PostView } from "@shared/contracts/posts";
import { Notice } from "~/components/notice";
import { OfflineNotice } from "~/components/offline-notice";
import { EmptyState, PageHeader } from "~/components/page";
import { LazyComposer, LazyPostOwnerMenu } from "~/components/posts/lazy";
import { PostList } from "~/components/posts/post-list";
import type { ShellHandle } from "~/components/shell/app-shell";
import { SuggestionsPanel } from "~/components/shell/suggested-profiles";
import { requireViewer } from "~/lib/forms.server";
import { useSession } from "~/lib/session";
import { useEmailVerifiedElsewhere } from "~/lib/email-verified";
import { offlineLoader, useOfflineCopy } from "~/lib/offline-copies";
import { newestCursor } from "~/lib/timeline";
import { useUpdates } from "~/lib/updates";
import { usePostList } from "~/lib/use-post-list";
import { soon } from "~/lib/idle";
import { pageMeta, titleTag } from "~/i18n/meta";
import { postPageShape, updatesAnswerShape } from "~/lib/api-shapes";
import { postListShape } from "~/lib/new-posts-shape";
import { array, boolean, number, object, string } from "@shared/shape";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [
  titleTag(t("Home")),
  { name: "description", content: t("Follow and subscribe to creators, see their exclusive posts, chat and tip.") },
]);

export const handle: ShellHandle = { rightColumn: "search-and-suggested" };

/** How many people on air Home shows. */
const LIVE_ON_HOME = 12;

/**
 * The first page comes with the HTML: two statements on top of the shell's, and who is live (one more, over the
 * partial index of live streams). An empty feed also brings creators to follow (one more statement, only then),
 * so a new fan on a phone, without the right column, finds some.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  const { db } = context.domain;
  // One batch: the timeline's first page, who is live and the stories tray.
  const [rows, onAir, stories] = await readTogether(db, [
    timelineRead(db, user, null),
    liveNowRead(db, user),
    storiesBarRead(db, user),
  ]);
  const page = await timelinePageOf(db, user, null, rows);
  const suggestions = page.posts.length === 0 ? await suggestProfiles(context.domain.db, user.id) : [];
  const live = onAir
    .filter((stream) => !stream.viewer.isCreator)
    .slice(0, LIVE_ON_HOME)
    .map(({ id, title, creator }) => ({
      id,
      title,
      creator: { username: creator.username, name: creator.name, avatarUrl: creator.avatarUrl },
    }));
  return {
    name: user.name,
    verified: user.email_verified_at !== null,
    isCreator: user.role === "creator",
    page,
    suggestions,
    live,
    stories,
    selfId: user.id,
    savedAt: Date.now(),
  };
}

/** The copy kept for offline reading (app/lib/offline-copies.ts): up to the last 200 posts on screen. */
const homeShape = object({
  name: string,
  verified: boolean,
  isCreator: boolean,
  page: postPageShape,
  suggestions: array(object({ username: string, avatarUrl: string, fullname: string })),
  savedAt: number,
});
const KEPT_POSTS = 200;

// Who was live and who has stories are not kept: offline, nobody can be watched and no story played.
export const clientLoader = offlineLoader(
  () => "home",
  (value, path) => ({
    ...homeShape(value, path),
    live: [] as LiveNowItem[],
    stories: [] as StoriesBarItem[],
    selfId: 0,
  }),
);

/**
 * The home feed (spec §3/§4). Opening it clears the Home dot (a POST: GETs never change anything). While it is
 * open, a NewUpdate push that lights the Home dot fetches the posts published since the newest one held and keeps
 * them pending behind "Show N new posts"; showing them moves them to the top and clears the dot again.
 */
export default function Home() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof clientLoader>();
  const { name, verified, isCreator, page, suggestions, live, stories, selfId } = data;
  useEmailVerifiedElsewhere(verified);
  const { api } = useSession();
  const { updates, setUpdates } = useUpdates();
  const { state, dispatch, toggleLike, toggleBookmark, replacePost, loadOlder, loadingOlder } = usePostList(
    page,
    "/timeline",
  );
  const kept = useMemo(() => {
    const posts = state.posts.slice(0, KEPT_POSTS);
    return {
      name,
      verified,
      isCreator,
      suggestions,
      savedAt: data.savedAt,
      page: { posts, nextCursor: posts.length < state.posts.length ? null : state.nextCursor },
    };
  }, [name, verified, isCreator, suggestions, data.savedAt, state.posts, state.nextCursor]);
  useOfflineCopy("home", data, kept);

  /** Clears the Home dot up to the newest post held: one published meanwhile keeps it lit (and is fetched below). */
  const markSeen = useCallback(
    (upTo: string | null | undefined) => {
      api
        .post("/home/seen", upTo ? { upTo } : {}, updatesAnswerShape)
        .then((body) => setUpdates(body.updates))
        .catch((error: unknown) => console.error("POST /home/seen failed", error));
    },
    [api, setUpdates],
  );

  const firstNewest = useRef(page.posts[0]?.publishedAt);
  useEffect(() => soon(() => markSeen(firstNewest.current)), [markSeen]);

  const after = newestCursor(state);
  const fetching = useRef(false);
  useEffect(() => {
    if (!updates.home || fetching.current) return;
    fetching.current = true;
    api
      .get(`/timeline/new${after ? `?after=${encodeURIComponent(after)}` : ""}`, postListShape)
      .then((body) => dispatch({ type: "addNewPosts", posts: body.posts }))
      .catch((error: unknown) => console.error("GET /timeline/new failed", error))
      .finally(() => {
        fetching.current = false;
      });
    // Every refreshed summary with the dot lit asks again; `after` is read as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [updates]);

  /** A follow from the empty feed's suggestions: the creator's posts, if any, fill the feed at once. */
  const showFollowedPosts = useCallback(() => {
    api
      .get("/timeline", postPageShape)
      .then((first) => dispatch({ type: "set", posts: first.posts, nextCursor: first.nextCursor }))
      .catch((error: unknown) => console.error("GET /timeline failed", error));
  }, [api, dispatch]);

  function showNewPosts() {
    dispatch({ type: "showNewPosts" });
    markSeen((state.newPosts[0] ?? state.posts[0])?.publishedAt);
    window.scrollTo({ top: 0, behavior: "smooth" });
  }

  // Stable, so that the list's posts are not all rendered again whenever Home is (PostList's rows are memoized).
  const ownerMenu = useCallback(
    (post: PostView) =>
      post.viewer.canEdit ? (
        <LazyPostOwnerMenu
          post={post}
          onUpdated={(updated) => dispatch({ type: "replace", post: updated })}
          onDeleted={(id) => dispatch({ type: "remove", id })}
        />
      ) : null,
    [dispatch],
  );

  const pending = state.newPosts.length;
  return (
    <>
      <PageHeader title={t("Home")} />
      <OfflineNotice offline={data.offline} />
      {data.offline ? null : <StoriesBar items={stories} live={live} selfId={selfId} isCreator={isCreator} />}
      {isCreator ? (
        <LazyComposer
          onPublished={(post) => {
            dispatch({ type: "addNewPosts", posts: [post] });
            dispatch({ type: "showNewPosts" });
          }}
        />
      ) : null}
      {!verified ? (
        <div className="p-4">
          <Notice tone="info">
            {t("Please verify your email address.")}{" "}
            <Link to="/email/verify" className="link">
              {t("Verify now")}
            </Link>
          </Notice>
        </div>
      ) : null}
      {pending > 0 ? (
        <div className="sticky top-14 z-10 flex justify-center py-2">
          <button type="button" className="btn-primary w-auto shadow-lg" onClick={showNewPosts} data-show-new-posts>
            {pending === 1 ? t("Show 1 new post") : t("Show {{count}} new posts", { count: pending })}
          </button>
        </div>
      ) : null}
      {state.posts.length > 0 ? (
        <PostList
          posts={state.posts}
          onLike={toggleLike}
          onBookmark={toggleBookmark}
          onUnlocked={replacePost}
          hasOlder={state.nextCursor !== null}
          loadingOlder={loadingOlder}
          onLoadOlder={loadOlder}
          headerExtra={ownerMenu}
        />
      ) : (
        <>
          <h2 className="px-4 pt-4 text-lg font-semibold">{t("Welcome, {{name}}!", { name })}</h2>
          <EmptyState
            icon="home"
            title={t("Your feed is empty")}
            text={t("Posts from creators you follow and subscribe to will appear here.")}
            action={{ to: "/search", label: t("Find creators") }}
          />
          {/* Wide screens show the same suggestions in the right column. */}
          <SuggestionsPanel profiles={suggestions} onFollowed={showFollowedPosts} className="mx-4 mb-4 desk:hidden" />
        </>
      )}
    </>
  );
}
