import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { listBookmarks } from "../../worker/domain/interactions/list-bookmarks";
import { EmptyState, PageHeader } from "~/components/page";
import { PostList } from "~/components/posts/post-list";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireViewer } from "~/lib/forms.server";
import { usePostList } from "~/lib/use-post-list";
import { pageMeta, titleTag } from "~/i18n/meta";

export const meta = pageMeta((t) => [titleTag(t("Bookmarks"))]);

export const handle: ShellHandle = { rightColumn: "search" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  return { page: await listBookmarks(context.domain.db, user.id, null) };
}

/** /bookmarks: the posts the user saved, most recently saved first. Unbookmarking keeps the card until reload. */
export default function BookmarksPage() {
  const { t } = useTranslation();
  const { page } = useLoaderData<typeof loader>();
  const { state, toggleLike, toggleBookmark, replacePost, loadOlder, loadingOlder } = usePostList(page, "/bookmarks");
  return (
    <>
      <PageHeader title={t("Bookmarks")} />
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
