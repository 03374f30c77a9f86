import { Link } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SuggestedProfile } from "@shared/contracts/profiles";
import { ApiError } from "~/lib/api";
import { knownOffline } from "~/lib/offline-copies";
import { useSession } from "~/lib/session";
import { readToken } from "~/lib/token";
import { Avatar } from "~/components/shell/avatar";
import { followStateShape, suggestedProfilesShape } from "~/components/shell/shell-shapes";
import { NameAndHandle } from "~/components/handle";

export type { SuggestedProfile };

/** Follow / Following for one suggestion, right where it is suggested (no trip to the profile needed). */
function FollowButton({ profile, onFollowed }: { profile: SuggestedProfile; onFollowed?(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [following, setFollowing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function toggle() {
    setBusy(true);
    setError(null);
    const path = `/users/${encodeURIComponent(profile.username)}/follow`;
    try {
      if (following) {
        await api.delete(path);
        setFollowing(false);
      } else {
        const state = await api.post(path, {}, followStateShape);
        setFollowing(state.following);
        if (state.following) onFollowed?.();
      }
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.body.message : t("Please try again in a moment."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="flex shrink-0 flex-col items-end">
      <button
        type="button"
        className={`${following ? "btn-secondary" : "btn-primary"} w-auto px-3 py-1.5 text-sm`}
        aria-pressed={following}
        disabled={busy}
        onClick={() => void toggle()}
      >
        {following ? t("Following") : t("Follow")}
        {/* Several Follow buttons share a list: the hidden name tells them apart for screen readers. */}
        <span className="sr-only"> {profile.fullname || profile.username}</span>
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-400">
          {error}
        </span>
      ) : null}
    </span>
  );
}

/**
 * Creators to follow, each with a Follow button: the right column on wide screens, and where a phone user
 * looks when there is nothing else to see (the empty home feed, /search before a query). `onFollowed` lets the
 * page show what the new follow brings.
 */
export function SuggestionsPanel({
  profiles,
  onFollowed,
  className = "",
}: {
  profiles: SuggestedProfile[];
  onFollowed?(): void;
  className?: string;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  if (profiles.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      data-suggestions
      className={`rounded-2xl border border-slate-200 p-4 dark:border-slate-800 ${className}`}
    >
      <h2 id={headingId} className="mb-3 text-lg font-bold">
        {t("Suggested")}
      </h2>
      <ul className="space-y-1">
        {profiles.map((profile) => (
          <li key={profile.username} className="flex items-center gap-2">
            <Link
              to={`/${profile.username}`}
              className="flex min-w-0 flex-1 items-center gap-3 rounded-xl p-2 hover:bg-slate-100 dark:hover:bg-slate-800"
            >
              <Avatar url={profile.avatarUrl} name={profile.fullname || profile.username} size="h-12 w-12" />
              <span className="min-w-0">
                <NameAndHandle name={profile.fullname} username={profile.username} />
              </span>
            </Link>
            <FollowButton profile={profile} onFollowed={onFollowed} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The right column's "Suggested" panel (spec §2/§7/§8): loaded when a token is stored; hidden when isExist is
 * false or the list is empty. A non-200 answer alerts "api error", a failed request "api error." (not when the
 * page knows it is offline).
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
      .get("/suggestedProfiles", suggestedProfilesShape, { quiet: true })
      .then((body) => current && setProfiles(body.isExist ? body.suggestedProfiles : []))
      .catch((error: unknown) => {
        if (!current) return;
        console.error("GET /suggestedProfiles failed", error);
        if (error instanceof ApiError && error.status === 401) return;
        // Known to be offline, a failed request is no failure of the server: the panel just stays empty.
        if (!(error instanceof ApiError) && knownOffline()) return;
        window.alert(error instanceof ApiError ? alerts.current.answered : alerts.current.failed);
      });
    return () => {
      current = false;
    };
  }, [api]);

  return <SuggestionsPanel profiles={profiles} />;
}
