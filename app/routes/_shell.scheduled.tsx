import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { listScheduledPosts } from "@worker/domain/posts/list-own-posts";
import type { PostView } from "@shared/contracts/posts";
import { Notice } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { EmptyState, PageHeader } from "~/components/page";
import { LoadMore } from "~/components/load-more-button";
import { EditPostDialog } from "~/components/posts/edit-post-dialog";
import { PostCard } from "~/components/posts/post-card";
import { useDeletePost } from "~/components/posts/post-owner-menu";
import { useOwnPostList } from "~/components/posts/use-own-post-list";
import type { ShellHandle } from "~/components/shell/app-shell";
import { ApiError } from "~/lib/api";
import { requireCreator } from "~/lib/forms.server";
import { useSession } from "~/lib/session";
import { pageMeta, titleTag } from "~/i18n/meta";
import { postPageShape, postShape } from "~/lib/api-shapes";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Scheduled posts"))]);

export const handle: ShellHandle = { rightColumn: "search" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  return listScheduledPosts(context.domain.db, user.id, null);
}

/** /scheduled: a creator's posts waiting for their time, soonest first: edit, publish now, or cancel. */
export default function ScheduledPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const deletePost = useDeletePost();
  const list = useOwnPostList(useLoaderData<typeof loader>(), "/posts/scheduled", postPageShape);
  const [editing, setEditing] = useState<PostView | null>(null);
  const [published, setPublished] = useState<PostView | null>(null);

  async function publishNow(post: PostView) {
    try {
      setPublished(await api.post(`/posts/${post.id}/publish`, {}, postShape));
      list.remove(post.id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      window.alert(error.body.message);
    }
  }

  return (
    <>
      <PageHeader title={t("Scheduled posts")}>
        <Link to="/home#compose" className="btn-primary w-auto text-sm">
          {t("New post")}
        </Link>
      </PageHeader>
      {published ? (
        <div className="p-4">
          <Notice tone="success">
            {t("Your post is published.")}{" "}
            <Link to={`/post/${published.id}`} className="link">
              {t("View post")}
            </Link>
          </Notice>
        </div>
      ) : null}
      {list.posts.length === 0 ? (
        <EmptyState
          icon="dashboard"
          title={t("Nothing scheduled")}
          text={t("Posts you schedule for later wait here until they are published.")}
        />
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label={t("Scheduled posts")}>
          {list.posts.map((post) => (
            <li key={post.id}>
              <PostCard
                post={post}
                actions={
                  <div className="space-y-3">
                    <p className="text-sm text-slate-600 dark:text-slate-400">
                      {t("Publishes on")}{" "}
                      <LocalTime iso={post.scheduledAt!} className="font-medium text-slate-900 dark:text-slate-100" />
                    </p>
                    <div className="flex flex-wrap gap-2">
                      <button
                        type="button"
                        className="btn-primary w-auto text-sm"
                        onClick={() => void publishNow(post)}
                      >
                        {t("Publish now")}
                      </button>
                      <button type="button" className="btn-secondary text-sm" onClick={() => setEditing(post)}>
                        {t("Edit")}
                      </button>
                      <button
                        type="button"
                        className="btn-secondary text-sm text-red-700 dark:text-red-300"
                        onClick={() => {
                          void deletePost(post.id).then((deleted) => deleted && list.remove(post.id));
                        }}
                      >
                        {t("Cancel post")}
                      </button>
                    </div>
                  </div>
                }
              />
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} />
      {editing ? (
        <EditPostDialog
          post={editing}
          onClose={() => setEditing(null)}
          onSaved={(post) => {
            setEditing(null);
            list.replace(post, (a, b) => a.scheduledAt!.localeCompare(b.scheduledAt!) || a.id - b.id);
          }}
        />
      ) : null}
    </>
  );
}
