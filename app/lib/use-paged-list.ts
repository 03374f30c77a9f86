import { useEffect, useState } from "react";

export interface PageOf<T, C> {
  items: T[];
  nextCursor: C | null;
}

/**
 * A list that starts with the loader's first page and grows with "Load more" (keyset pages from the API). A
 * revalidated loader starts it afresh; an item already shown is not repeated when pages shift under it.
 */
export function usePagedList<T extends { id: number }, C extends string | number>(first: PageOf<T, C>, fetchPage: (cursor: C) => Promise<PageOf<T, C>>) {
  const [items, setItems] = useState(first.items);
  const [nextCursor, setNextCursor] = useState(first.nextCursor);
  const [loading, setLoading] = useState(false);

  // The loader's array, not the wrapping object, says a new first page came (callers may wrap it inline).
  useEffect(() => {
    setItems(first.items);
    setNextCursor(first.nextCursor);
  }, [first.items, first.nextCursor]);

  /** Fetches the next page; a failure is thrown to the caller, and the list stays as it was. */
  async function loadMore() {
    if (nextCursor === null) return;
    setLoading(true);
    try {
      const page = await fetchPage(nextCursor);
      setItems((current) => [...current, ...page.items.filter((item) => !current.some((shown) => shown.id === item.id))]);
      setNextCursor(page.nextCursor);
    } finally {
      setLoading(false);
    }
  }

  return { items, setItems, nextCursor, loading, loadMore };
}
