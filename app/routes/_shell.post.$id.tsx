import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getPost } from "../../worker/domain/posts/get-post";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { Avatar } from "~/components/shell/avatar";

export const handle: ShellHandle = { rightColumn: "search" };

export async function loader({ context, params }: LoaderFunctionArgs) {
  const id = /^[1-9]\d{0,15}$/.test(params.id ?? "") ? Number(params.id) : null;
  const post = id ? await getPost(context.domain.db, id, context.session?.user.id ?? null) : null;
  if (!post) throw new Response("Not found", { status: 404 });
  return { post };
}

// Link previews (Open Graph, search) describe only posts open to everyone.
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: `${data.post.author.name} (@${data.post.author.username}) · Fanclub` }, ...(data.post.audience === "everyone" ? [{ name: "description", content: data.post.text.slice(0, 160) }] : [])] : [];

/** /post/{id}: one post. Likes, comments and tips come with the timeline work. */
export default function PostPage() {
  const { t, i18n } = useTranslation();
  const { post } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Post")} />
      <article className="space-y-3 p-4">
        <Link to={`/${post.author.username}`} className="flex items-center gap-3">
          <Avatar url={post.author.avatarUrl} name={post.author.name} />
          <span>
            <span className="block font-semibold">{post.author.name}</span>
            <span className="block text-sm text-slate-600 dark:text-slate-400">@{post.author.username}</span>
          </span>
        </Link>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          <time dateTime={post.publishedAt ?? ""}>{new Date(post.publishedAt ?? 0).toLocaleDateString(i18n.language, { dateStyle: "medium", timeZone: "UTC" })}</time>
        </p>
        {post.text ? <p className="whitespace-pre-line">{post.text}</p> : null}
        {post.media?.map((item) => <img key={item.url} src={item.url} alt="" className="w-full rounded-xl" />)}
        {post.lock ? (
          <p className="rounded-xl bg-slate-100 p-6 text-center dark:bg-slate-800">{post.audience === "followers" ? t("Follow to see this post.") : t("Subscribe to see this post.")}</p>
        ) : null}
      </article>
    </>
  );
}
