import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { listProcessingPosts } from "@worker/domain/posts/list-own-posts";
import { EmptyState, PageHeader } from "~/components/page";
import { LoadMore } from "~/components/load-more-button";
import { PostCard } from "~/components/posts/post-card";
import { useDeletePost } from "~/components/posts/post-owner-menu";
import { useOwnPostList } from "~/components/posts/use-own-post-list";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireCreator } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";
import { processingPostPageShape } from "~/components/posts/processing-shape";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Processing"))]);

export const handle: ShellHandle = { rightColumn: "search" };

/** While something is processing, the screen looks again this often: uploads finish on their own. */
const REFRESH_MS = 10_000;

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  return listProcessingPosts(context.domain.db, user.id, null);
}

/** /processing: a creator's posts whose photos or videos are still uploading, with each file's state. */
export default function ProcessingPage() {
  const { t } = useTranslation();
  const deletePost = useDeletePost();
  const list = useOwnPostList(useLoaderData<typeof loader>(), "/posts/processing", processingPostPageShape);
  const revalidator = useRevalidator();
  const anyPosts = list.posts.length > 0;

  useEffect(() => {
    if (!anyPosts) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [anyPosts, revalidator]);

  const stateLabel = { uploading: t("Uploading"), ready: t("Ready"), failed: t("Upload failed") };

  return (
    <>
      <PageHeader title={t("Processing")}>
        <Link to="/home#compose" className="btn-primary w-auto text-sm">
          {t("New post")}
        </Link>
      </PageHeader>
      {!anyPosts ? (
        <EmptyState
          icon="dashboard"
          title={t("Nothing is processing")}
          text={t("Videos and photos you upload appear here while they are being prepared.")}
        />
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label={t("Processing posts")}>
          {list.posts.map((post) => (
            <li key={post.id}>
              <PostCard
                post={post}
                actions={
                  <div className="space-y-3">
                    <ul className="space-y-1 text-sm" aria-label={t("Files")}>
                      {post.uploads.map((upload, index) => (
                        <li key={upload.id} className="flex justify-between gap-3" data-upload-state={upload.status}>
                          <span>
                            {upload.kind === "video"
                              ? t("Video {{number}}", { number: index + 1 })
                              : t("Photo {{number}}", { number: index + 1 })}
                          </span>
                          <span
                            className={
                              upload.status === "failed"
                                ? "font-medium text-red-700 dark:text-red-300"
                                : "text-slate-600 dark:text-slate-400"
                            }
                          >
                            {stateLabel[upload.status]}
                          </span>
                        </li>
                      ))}
                    </ul>
                    <p className="text-sm text-slate-600 dark:text-slate-400">
                      {post.uploads.some((upload) => upload.status === "failed")
                        ? t("A file could not be uploaded. Delete this post and post it again.")
                        : t("It is published as soon as every file is uploaded.")}
                    </p>
                    <button
                      type="button"
                      className="btn-secondary text-sm text-red-700 dark:text-red-300"
                      onClick={() => {
                        void deletePost(post.id).then((deleted) => deleted && list.remove(post.id));
                      }}
                    >
                      {t("Delete")}
                    </button>
                  </div>
                }
              />
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} />
    </>
  );
}
