import { Link } from "@remix-run/react";
import { useEffect, useId, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "~/lib/session";
import type { UserSearchResult } from "@shared/contracts/profiles";
import { Avatar } from "~/components/shell/avatar";
import { userSearchShape } from "~/components/shell/shell-shapes";
import { Icon } from "~/components/shell/icons";
import { Handle } from "~/components/handle";

/** Typing pauses this long before a search is sent. */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * The clearable user search of spec §2/§7: GET /api/searchUsers on each change of a non-empty term (after a short
 * pause), "No result" when nothing matches; failures are only logged. `whileEmpty` shows until a term is typed;
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
  const { api } = useSession();
  const [term, setTerm] = useState(initialTerm);
  const [results, setResults] = useState<UserSearchResult[] | null>(null);
  const inputId = useId();
  const resultsId = useId();

  useEffect(() => {
    const query = term.trim();
    if (!query) {
      setResults(null);
      return;
    }
    let current = true;
    const timer = window.setTimeout(() => {
      api
        .get(`/searchUsers?searchTerm=${encodeURIComponent(query)}`, userSearchShape, { quiet: true })
        .then((body) => current && setResults(body.results.users))
        .catch((error: unknown) => console.error("GET /searchUsers failed", error));
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [api, term]);

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
        {results && results.length === 0 ? (
          <p className="px-3 py-3 text-sm text-slate-600 dark:text-slate-400">{t("No result")}</p>
        ) : null}
        {results && results.length > 0 ? (
          <ul aria-label={t("Search results")} className="mt-2 space-y-1">
            {results.map((user) => (
              <li key={user.username}>
                <Link
                  to={`/${user.username}`}
                  className="flex items-center gap-3 rounded-xl px-3 py-2 hover:bg-slate-100 dark:hover:bg-slate-800"
                >
                  <Avatar url={user.avatarUrl} name={user.name || user.username} />
                  <span className="min-w-0">
                    <span dir="auto" className="block truncate-text font-semibold">
                      {user.name}
                    </span>
                    <span dir="ltr" className="block truncate-text text-sm text-slate-600 dark:text-slate-400">
                      <Handle username={user.username} />
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {term.trim() === "" ? whileEmpty : null}
    </div>
  );
}
