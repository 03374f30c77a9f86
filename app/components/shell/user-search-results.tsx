import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "~/lib/session";
import type { UserSearchResult } from "@shared/contracts/profiles";
import { Avatar } from "~/components/shell/avatar";
import { userSearchShape } from "~/components/shell/shell-shapes";
import { NameAndHandle } from "~/components/handle";

/** Typing pauses this long before a search is sent. */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * The people matching a non-empty term: GET /api/searchUsers once typing pauses, "No result" when nothing matches;
 * failures are only logged. Loaded with the first letter typed (user-search.tsx): a page that nobody searches from
 * carries none of it.
 */
export function UserSearchResults({ term }: { term: string }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [results, setResults] = useState<UserSearchResult[] | null>(null);

  useEffect(() => {
    let current = true;
    const timer = window.setTimeout(() => {
      api
        .get(`/searchUsers?searchTerm=${encodeURIComponent(term)}`, userSearchShape, { quiet: true })
        .then((body) => current && setResults(body.results.users))
        .catch((error: unknown) => console.error("GET /searchUsers failed", error));
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [api, term]);

  if (!results) return null;
  if (results.length === 0)
    return <p className="px-3 py-3 text-sm text-slate-600 dark:text-slate-400">{t("No result")}</p>;
  return (
    <ul aria-label={t("Search results")} className="mt-2 space-y-1">
      {results.map((user) => (
        <li key={user.username}>
          <Link
            to={`/${user.username}`}
            className="flex items-center gap-3 rounded-xl px-3 py-2 hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            <Avatar url={user.avatarUrl} name={user.name || user.username} />
            <span className="min-w-0">
              <NameAndHandle name={user.name} username={user.username} />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
