import { lazy, useEffect, useId, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/shell/icons";
import { UnlessLoadFails } from "~/components/unless-load-fails";

const UserSearchResults = lazy(() =>
  import("~/components/shell/user-search-results").then((module) => ({ default: module.UserSearchResults })),
);

/**
 * The clearable user search of spec §2/§7: the people matching each change of a non-empty term
 * (user-search-results.tsx). `whileEmpty` shows until a term is typed;
 * `initialTerm` is searched at once (/search?q=…, a shared link).
 */
export function UserSearch({
  autoFocus = false,
  whileEmpty = null,
  initialTerm = "",
}: {
  autoFocus?: boolean;
  whileEmpty?: ReactNode;
  initialTerm?: string;
}) {
  const { t } = useTranslation();
  const [term, setTerm] = useState(initialTerm);
  const inputId = useId();
  const resultsId = useId();
  const query = term.trim();
  // The results come after the hydration: a part still loading while the page hydrates would be rendered again.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  return (
    <div role="search" className="block">
      <label htmlFor={inputId} className="sr-only">
        {t("Search users")}
      </label>
      <div className="relative">
        <span className="pointer-events-none absolute inset-y-0 start-3 flex items-center text-slate-600 dark:text-slate-400">
          <Icon name="search" className="h-5 w-5" />
        </span>
        <input
          id={inputId}
          type="search"
          value={term}
          autoFocus={autoFocus}
          onChange={(event) => setTerm(event.target.value)}
          onKeyDown={(event) => event.key === "Escape" && setTerm("")}
          placeholder={t("Search users")}
          autoComplete="off"
          maxLength={64}
          aria-controls={resultsId}
          className="input rounded-full pe-10 ps-10 [&::-webkit-search-cancel-button]:hidden"
        />
        {term ? (
          <button
            type="button"
            onClick={() => setTerm("")}
            aria-label={t("Clear search")}
            className="absolute inset-y-0 end-1 my-auto flex h-8 w-8 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800"
          >
            <Icon name="close" className="h-4 w-4" />
          </button>
        ) : null}
      </div>
      <div id={resultsId} aria-live="polite">
        {query && hydrated ? (
          <UnlessLoadFails>
            <UserSearchResults term={query} />
          </UnlessLoadFails>
        ) : null}
      </div>
      {query ? null : whileEmpty}
    </div>
  );
}
