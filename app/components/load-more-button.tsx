import { useTranslation } from "react-i18next";

/** What LoadMore needs of a usePagedList list (app/lib/use-paged-list.ts). */
interface PagedList {
  nextCursor: unknown;
  loading: boolean;
  failure: string | null;
  loadMore: () => Promise<void>;
}

/** A usePagedList list's "Load more", with its failure; nothing once the list has no next page. */
export function LoadMore({ list }: { list: PagedList }) {
  return list.nextCursor === null ? null : (
    <LoadMoreButton onClick={() => void list.loadMore()} disabled={list.loading} failure={list.failure} />
  );
}

/** "Load more" under a paged list, with why the last page did not come (usePagedList's `failure`) above it. */
export function LoadMoreButton({
  onClick,
  disabled,
  failure,
}: {
  onClick: () => void;
  disabled?: boolean;
  failure?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <div className="p-4 text-center">
      {failure ? (
        <p role="alert" className="mb-2 text-sm text-red-700 dark:text-red-400">
          {failure}
        </p>
      ) : null}
      <button type="button" className="btn-secondary" onClick={onClick} disabled={disabled}>
        {t("Load more")}
      </button>
    </div>
  );
}
