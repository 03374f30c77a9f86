import { useEffect, useState } from "react";
import { useSession } from "~/lib/session";

interface Page<T> {
  posts: T[];
  nextCursor: string | null;
}

/** A creator's own list (/scheduled, /processing): the loader's first page, then more pages from the API. */
export function useOwnPostList<T extends { id: number }>(firstPage: Page<T>, apiPath: string) {
  const { api } = useSession();
  const [posts, setPosts] = useState(firstPage.posts);
  const [nextCursor, setNextCursor] = useState(firstPage.nextCursor);
  const [loading, setLoading] = useState(false);

  // A revalidated loader (navigation back to the screen) starts the list afresh.
  useEffect(() => {
    setPosts(firstPage.posts);
    setNextCursor(firstPage.nextCursor);
  }, [firstPage]);

  async function loadMore() {
    if (!nextCursor) return;
    setLoading(true);
    try {
      const page = await api.get<Page<T>>(`${apiPath}?cursor=${encodeURIComponent(nextCursor)}`);
      setPosts((current) => [...current, ...page.posts.filter((post) => !current.some((p) => p.id === post.id))]);
      setNextCursor(page.nextCursor);
    } finally {
      setLoading(false);
    }
  }

  return {
    posts,
    nextCursor,
    loading,
    loadMore,
    remove: (postId: number) => setPosts((current) => current.filter((post) => post.id !== postId)),
    /** Puts the edited post in place, keeping the list's order. */
    replace: (post: T, order: (a: T, b: T) => number) => setPosts((current) => current.map((p) => (p.id === post.id ? post : p)).sort(order)),
  };
}
