import { Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { readToken } from "~/lib/token";
import { Avatar } from "./avatar";

interface SuggestedProfile {
  username: string;
  avatarUrl: string;
  fullname: string;
}

/**
 * The "Suggested" panel (spec §2/§7/§8): loaded when a token is stored; hidden when isExist is false or the list
 * is empty. A non-200 answer alerts "api error", a failed request "api error.".
 */
export function SuggestedProfiles() {
  const { t } = useTranslation();
  const { api } = useSession();
  const [profiles, setProfiles] = useState<SuggestedProfile[]>([]);
  const alerts = useRef({ answered: "", failed: "" });
  alerts.current = { answered: t("api error"), failed: t("api error.") };

  useEffect(() => {
    if (!readToken()) return;
    let current = true;
    api
      .get<{ isExist: boolean; suggestedProfiles: SuggestedProfile[] }>("/suggestedProfiles", { quiet: true })
      .then((body) => current && setProfiles(body.isExist ? body.suggestedProfiles : []))
      .catch((error: unknown) => {
        if (!current) return;
        console.error("GET /suggestedProfiles failed", error);
        if (error instanceof ApiError && error.status === 401) return;
        window.alert(error instanceof ApiError ? alerts.current.answered : alerts.current.failed);
      });
    return () => {
      current = false;
    };
  }, [api]);

  if (profiles.length === 0) return null;
  return (
    <section aria-labelledby="suggested-heading" className="rounded-2xl border border-slate-200 p-4 dark:border-slate-800">
      <h2 id="suggested-heading" className="mb-3 text-lg font-bold">
        {t("Suggested")}
      </h2>
      <ul className="space-y-1">
        {profiles.map((profile) => (
          <li key={profile.username}>
            <Link to={`/${profile.username}`} className="flex items-center gap-3 rounded-xl p-2 hover:bg-slate-100 dark:hover:bg-slate-800">
              <Avatar url={profile.avatarUrl} name={profile.fullname || profile.username} size="h-12 w-12" />
              <span className="min-w-0">
                <span className="block truncate font-semibold">{profile.fullname}</span>
                <span className="block truncate text-sm text-slate-600 dark:text-slate-400">@{profile.username}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
