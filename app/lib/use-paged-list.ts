import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "~/lib/api";

export interface PageOf<T, C> {
  items: T[];
  nextCursor: C | null;
}

/**
 * A list that starts with the loader's first page and grows with "Load more" (keyset pages from the API). A
 * revalidated loader starts it afresh; an item already shown is not repeated when pages shift under it. A page that
 * does not come leaves the list as it was and says why in `failure` (the API's message, or that the device is
 * offline), for LoadMore (app/components/load-more-button.tsx) to show beside the button that tries again.
 */
export function usePagedList<T extends { id: number }, C extends string | number>(
  first: PageOf<T, C>,
  fetchPage: (cursor: C) => Promise<PageOf<T, C>>,
) {
  const [items, setItems] = useState(first.items);
  const [nextCursor, setNextCursor] = useState(first.nextCursor);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { t } = useTranslation();

  // The loader's array, not the wrapping object, says a new first page came (callers may wrap it inline).
  useEffect(() => {
    setItems(first.items);
    setNextCursor(first.nextCursor);
  }, [first.items, first.nextCursor]);

  /** Fetches the next page; never rejects (a failure is kept in `failure`). */
  async function loadMore() {
    if (nextCursor === null) return;
    setLoading(true);
    setFailure(null);
    try {
      const page = await fetchPage(nextCursor);
      setItems((current) => [
        ...current,
        ...page.items.filter((item) => !current.some((shown) => shown.id === item.id)),
      ]);
      setNextCursor(page.nextCursor);
    } catch (error) {
      if (error instanceof ApiError) setFailure(error.body.message);
      else setFailure(navigator.onLine ? t("Could not load more. Please try again.") : t("You are offline"));
    } finally {
      setLoading(false);
    }
  }

  return { items, setItems, nextCursor, loading, failure, loadMore };
}
