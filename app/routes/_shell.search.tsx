import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { searchPosts } from "@worker/domain/search/search-posts";
import { suggestProfiles } from "@worker/domain/search/suggest-profiles";
import { SEARCH_TERM_MAX } from "@shared/contracts/search-limits";
import { AppError } from "@worker/domain/shared/errors";
import { translateError } from "@worker/http/errors";
import { PageHeader } from "~/components/page";
import { PostList } from "~/components/posts/post-list";
import type { ShellHandle } from "~/components/shell/app-shell";
import { SuggestionsPanel } from "~/components/shell/suggested-profiles";
import { UserSearch } from "~/components/shell/user-search";
import { requireViewer } from "~/lib/forms.server";
import { usePostList } from "~/lib/use-post-list";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Search"))]);

export const handle: ShellHandle = { rightColumn: "empty" };

/** The Posts tab searches on the server (a GET form), so results come with the page and its URL can be shared. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  const url = new URL(request.url);
  const tab = url.searchParams.get("tab") === "posts" ? "posts" : "users";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, SEARCH_TERM_MAX);
  // The Users tab starts with creators to follow: something to find before a single letter is typed.
  if (tab === "users")
    return { tab, q, posts: null, error: null, suggestions: await suggestProfiles(context.domain.db, user.id) };
  if (q === "") return { tab, q, posts: null, error: null, suggestions: [] };
  try {
    return { tab, q, posts: await searchPosts(context.domain, user.id, q), error: null, suggestions: [] };
  } catch (error) {
    if (error instanceof AppError)
      return { tab, q, posts: null, error: translateError(context.domain.t, error).message, suggestions: [] };
    throw error;
  }
}

/** /search: tabs Users (the live user search, full width) and Posts (text search over posts the user may see); `q` is the term of either. */
export default function SearchPage() {
  const { t } = useTranslation();
  const { tab, q, posts, error, suggestions } = useLoaderData<typeof loader>();
  const tabClass = (active: boolean) =>
    `flex-1 border-b-2 px-4 py-3 text-center font-semibold ${active ? "border-brand-600 text-brand-600 dark:border-brand-300 dark:text-brand-300" : "border-transparent text-slate-600 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800"}`;
  return (
    <>
      <PageHeader title={t("Search")} />
      <nav className="flex border-b border-slate-200 dark:border-slate-800" aria-label={t("Search")}>
        <Link to="/search" className={tabClass(tab === "users")} aria-current={tab === "users" ? "page" : undefined}>
          {t("Users")}
        </Link>
        <Link
          to={`/search?tab=posts${q ? `&q=${encodeURIComponent(q)}` : ""}`}
          className={tabClass(tab === "posts")}
          aria-current={tab === "posts" ? "page" : undefined}
        >
          {t("Posts")}
        </Link>
      </nav>
      {tab === "users" ? (
        <div className="p-4">
          <UserSearch
            key={q}
            autoFocus
            initialTerm={q}
            whileEmpty={<SuggestionsPanel profiles={suggestions} className="mt-4" />}
          />
        </div>
      ) : (
        <PostSearch key={q} q={q} posts={posts} error={error} />
      )}
    </>
  );
}

function PostSearch({
  q,
  posts,
  error,
}: {
  q: string;
  posts: Parameters<typeof usePostList>[0]["posts"] | null;
  error: string | null;
}) {
  const { t } = useTranslation();
  const found = useMemo(() => ({ posts: posts ?? [], nextCursor: null }), [posts]);
  const { state, toggleLike, toggleBookmark, replacePost } = usePostList(found, "/search/posts");
  return (
    <>
      <Form method="get" role="search" className="flex gap-2 p-4">
        <input type="hidden" name="tab" value="posts" />
        <label htmlFor="post-search" className="sr-only">
          {t("Search posts")}
        </label>
        <input
          id="post-search"
          name="q"
          type="search"
          className="input"
          defaultValue={q}
          maxLength={SEARCH_TERM_MAX}
          placeholder={t("Search posts")}
          autoFocus
        />
        <button type="submit" className="btn-primary w-auto">
          {t("Search")}
        </button>
      </Form>
      {error ? (
        <p role="alert" className="px-4 text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      {posts !== null && state.posts.length === 0 ? (
        <p className="px-4 text-slate-600 dark:text-slate-400">{t("No result")}</p>
      ) : null}
      <PostList
        posts={state.posts}
        onLike={toggleLike}
        onBookmark={toggleBookmark}
        onUnlocked={replacePost}
        hasOlder={false}
        loadingOlder={false}
        onLoadOlder={() => {}}
      />
    </>
  );
}
