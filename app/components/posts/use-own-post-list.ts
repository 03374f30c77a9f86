import { usePagedList } from "~/lib/use-paged-list";
import { useSession } from "~/lib/session";
import type { Shape } from "@shared/shape";

interface Page<T> {
  posts: T[];
  nextCursor: string | null;
}

/** A creator's own list (/scheduled, /processing): the loader's first page, then more pages from the API. */
export function useOwnPostList<T extends { id: number }>(
  firstPage: Page<T>,
  apiPath: string,
  pageShape: Shape<Page<T>>,
) {
  const { api } = useSession();
  const list = usePagedList({ items: firstPage.posts, nextCursor: firstPage.nextCursor }, async (cursor: string) => {
    const page = await api.get(`${apiPath}?cursor=${encodeURIComponent(cursor)}`, pageShape);
    return { items: page.posts, nextCursor: page.nextCursor };
  });
  const setPosts = list.setItems;
  return {
    posts: list.items,
    nextCursor: list.nextCursor,
    loading: list.loading,
    failure: list.failure,
    loadMore: list.loadMore,
    remove: (postId: number) => setPosts((current) => current.filter((post) => post.id !== postId)),
    /** Puts the edited post in place, keeping the list's order. */
    replace: (post: T, order: (a: T, b: T) => number) =>
      setPosts((current) => current.map((p) => (p.id === post.id ? post : p)).sort(order)),
  };
}
