import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { listBookmarks } from "@worker/domain/interactions/list-bookmarks";
import { OfflineNotice } from "~/components/offline-notice";
import { EmptyState, PageHeader } from "~/components/page";
import { PostList } from "~/components/posts/post-list";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireViewer } from "~/lib/forms.server";
import { postPageShape } from "~/lib/api-shapes";
import { offlineLoader, useOfflineCopy } from "~/lib/offline-copies";
import { usePostList } from "~/lib/use-post-list";
import { number, object } from "@shared/shape";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Bookmarks"))]);

export const handle: ShellHandle = { rightColumn: "search" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  return { page: await listBookmarks(context.domain.db, user.id, null), savedAt: Date.now() };
}

/** The copy kept for offline reading (app/lib/offline-copies.ts): the bookmarks on screen, up to 200. */
const KEPT_POSTS = 200;
export const clientLoader = offlineLoader(() => "bookmarks", object({ page: postPageShape, savedAt: number }));

/** /bookmarks: the posts the user saved, most recently saved first. Unbookmarking keeps the card until reload. */
export default function BookmarksPage() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof clientLoader>();
  const { state, toggleLike, toggleBookmark, replacePost, loadOlder, loadingOlder } = usePostList(
    data.page,
    "/bookmarks",
  );
  const kept = useMemo(() => {
    const posts = state.posts.slice(0, KEPT_POSTS);
    return {
      savedAt: data.savedAt,
      page: { posts, nextCursor: posts.length < state.posts.length ? null : state.nextCursor },
    };
  }, [data.savedAt, state.posts, state.nextCursor]);
  useOfflineCopy("bookmarks", data, kept);
  return (
    <>
      <PageHeader title={t("Bookmarks")} />
      <OfflineNotice offline={data.offline} />
      {state.posts.length > 0 ? (
        <PostList
          posts={state.posts}
          onLike={toggleLike}
          onBookmark={toggleBookmark}
          onUnlocked={replacePost}
          hasOlder={state.nextCursor !== null}
          loadingOlder={loadingOlder}
          onLoadOlder={loadOlder}
        />
      ) : (
        <EmptyState
          icon="bookmarks"
          title={t("No bookmarks yet")}
          text={t("Tap the bookmark on any post to keep it here. Bookmarked posts stay readable offline.")}
          action={{ to: "/home", label: t("Go to your feed") }}
        />
      )}
    </>
  );
}
