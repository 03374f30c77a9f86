import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { bookmarkPost, unbookmarkPost } from "@worker/domain/interactions/bookmark-post";
import { likePost, unlikePost } from "@worker/domain/interactions/like-post";
import { commentsRead } from "@worker/domain/interactions/list-comments";
import { postRead, type getPost } from "@worker/domain/posts/get-post";
import { readTogether } from "@worker/domain/shared/reads";
import { Comments } from "~/components/posts/comments";
import { UnlockButton } from "~/components/money/unlock-button";
import { PostActions } from "~/components/posts/post-actions";
import { useWaitingPostIds } from "~/lib/outbox";
import { PostCard } from "~/components/posts/post-card";
import { LazyPostOwnerMenu, LazyReportButton } from "~/components/posts/lazy";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { usePostList } from "~/lib/use-post-list";
import { pageMeta, titleTag } from "~/i18n/meta";
import { parseIdText } from "@worker/domain/shared/validation";
import { AppError } from "@worker/domain/shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { Notice } from "~/components/notice";
import { backTo, handleForm, readForm, requireViewer, type FormResult } from "~/lib/forms.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const handle: ShellHandle = { rightColumn: "search" };

export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const id = parseIdText(params.id);
  const viewerId = context.session?.user.id ?? null;
  if (!id) throw new Response("Not found", { status: 404 });
  // The comments are read in the same batch as the post; they count only if it opens for the viewer.
  const { db } = context.domain;
  const [post, opened] = await readTogether(db, [postRead(db, id, viewerId), commentsRead(db, id, viewerId, null)]);
  if (!post) throw new Response("Not found", { status: 404 });
  const comments = post.lock === null ? opened : { comments: [], nextCursor: null };
  return { post, comments, preview: linkPreview(post, new URL(request.url).origin) };
}

/**
 * Like, unlike, bookmark and unbookmark as the browser posts them from any list of posts before the page has
 * hydrated (app/components/early-form.tsx); then the page it came from again. A refusal shows on this post's page.
 */
export async function action({ context, params, request }: ActionFunctionArgs) {
  const { user } = requireViewer(context, request);
  const id = parseIdText(params.id);
  if (!id) throw new Response("Not found", { status: 404 });
  return handleForm(context, async () => {
    const { intent } = await readForm(request);
    if (intent === "like") await likePost(context.domain, user.id, id);
    else if (intent === "unlike") await unlikePost(context.domain.db, user.id, id);
    else if (intent === "bookmark") await bookmarkPost(context.domain.db, user.id, id);
    else if (intent === "unbookmark") await unbookmarkPost(context.domain.db, user.id, id);
    else throw new AppError("validation", INVALID_VALUE);
    return redirect(backTo(request, `/post/${id}`));
  });
}

/**
 * What a shared link shows (Open Graph). Only a free post for everyone gives its text and first image; any other
 * post gives its author and avatar, never its text or media, whoever is looking (the owner shares links too).
 */
function linkPreview(post: NonNullable<Awaited<ReturnType<typeof getPost>>>, origin: string) {
  const isPublic = post.audience === "everyone" && post.priceCents === 0 && post.lock === null;
  const image = isPublic ? post.media?.find((m) => m.kind === "image")?.url : undefined;
  const fallback = post.author.avatarUrl || undefined;
  return {
    title: `${post.author.name} (@${post.author.username})`,
    description: isPublic ? post.text.slice(0, 200) : null,
    image: (image ?? fallback) ? new URL((image ?? fallback)!, origin).toString() : null,
    url: new URL(`/post/${post.id}`, origin).toString(),
  };
}

export const meta = pageMeta<typeof loader>((t, { data }) => {
  if (!data) return [titleTag(t("Page not found"))];
  const { title, description, image, url } = data.preview;
  return [
    titleTag(title),
    { property: "og:type", content: "article" },
    { property: "og:title", content: title },
    { property: "og:url", content: url },
    ...(description
      ? [
          { name: "description", content: description.slice(0, 160) },
          { property: "og:description", content: description },
        ]
      : []),
    ...(image ? [{ property: "og:image", content: image }] : []),
  ];
});

/** /post/{id}: one post with its actions and comments; a missing or hidden post is the layout's 404. */
export default function PostPage() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const refusal = useActionData<FormResult>();
  const one = useMemo(() => ({ posts: [data.post], nextCursor: null }), [data.post]);
  const { state, dispatch, toggleLike, toggleBookmark, replacePost } = usePostList(one, "/timeline");
  const navigate = useNavigate();
  const post = state.posts[0] ?? data.post;
  const waiting = useWaitingPostIds();
  return (
    <>
      <PageHeader title={t("Post")} />
      {refusal && !refusal.ok ? <Notice tone="error">{refusal.message}</Notice> : null}
      <PostCard
        post={post}
        priority
        headerExtra={
          post.viewer.canEdit ? (
            <LazyPostOwnerMenu
              post={post}
              onUpdated={(updated) => dispatch({ type: "replace", post: updated })}
              onDeleted={() => navigate("/home", { replace: true })}
            />
          ) : post.viewer.canReport ? (
            <LazyReportButton
              target={{ kind: "post", postId: post.id }}
              className="btn-secondary w-auto px-3 py-1 text-sm"
            />
          ) : null
        }
        actions={
          <PostActions post={post} onLike={toggleLike} onBookmark={toggleBookmark} waiting={waiting.has(post.id)} />
        }
        unlock={post.viewer.canUnlock ? <UnlockButton post={post} onUnlocked={replacePost} /> : undefined}
      />
      {post.lock === null ? (
        <Comments
          postId={post.id}
          initial={data.comments}
          onCountChange={(delta) =>
            dispatch({ type: "replace", post: { ...post, commentCount: post.commentCount + delta } })
          }
        />
      ) : null}
    </>
  );
}
