import { Link } from "@remix-run/react";
import { useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Profile } from "@shared/contracts/profiles";
import type { HighlightView } from "@shared/contracts/stories";
import type { TrialOffer } from "@shared/contracts/offers";
import { storyRingClass } from "~/components/shell/avatar";
import { ProfileActions, type ProfileViewer } from "~/components/profile/profile-actions";
import { ProfileFeed } from "~/components/profile/profile-feed";
import { TrialBanner } from "~/components/profile/subscribe-dialog";
import { Handle } from "~/components/handle";

export type { Profile, ProfileViewer };

/**
 * /{username} as the server presented it for this viewer: cover, avatar, name, bio, counts, the actions and the
 * Posts / Media tabs. Across a block only the name and avatar remain. `moreMenu` is the "…" menu (Report,
 * Block) that the page wires in. A creator with stories the viewer may see has a ring round the avatar (coloured
 * while some are unseen) that opens them; their highlights sit under the actions.
 */
export function ProfileView({
  profile,
  viewer,
  shareUrl,
  moreMenu,
  storyRing = null,
  highlights = [],
  walletCents = null,
  trial = null,
  trialRefusal = null,
}: {
  profile: Profile;
  viewer: ProfileViewer;
  shareUrl: string;
  moreMenu?: ReactNode;
  storyRing?: { count: number; unseen: number } | null;
  highlights?: HighlightView[];
  /** The viewer's wallet balance, for the subscribe and gift dialogs. */
  walletCents?: number | null;
  trial?: TrialOffer | null;
  /** Why the trial link cannot be used: a translation key. */
  trialRefusal?: string | null;
}) {
  const { t } = useTranslation();
  const firstPage = useMemo(() => ({ posts: profile.posts, nextCursor: profile.nextCursor }), [profile]);
  const counts = [
    { label: t("Posts"), value: profile.postCount },
    { label: t("Media"), value: profile.mediaCount },
    { label: t("Likes"), value: profile.likeCount },
    ...(profile.followerCount === null ? [] : [{ label: t("Followers"), value: profile.followerCount }]),
  ];
  const avatar = profile.avatarUrl ? (
    <img
      src={profile.avatarUrl}
      alt={t("Avatar of {{name}}", { name: profile.name })}
      className="h-24 w-24 rounded-full border-4 border-white object-cover dark:border-slate-950"
    />
  ) : (
    <div className="h-24 w-24 rounded-full border-4 border-white bg-slate-300 dark:border-slate-950 dark:bg-slate-700" />
  );
  return (
    <div>
      <section aria-labelledby="profile-name">
        <div className="h-40 bg-slate-200 dark:bg-slate-800 sm:h-52">
          {profile.coverUrl ? <img src={profile.coverUrl} alt="" className="h-full w-full object-cover" /> : null}
        </div>
        <div className="-mt-12 px-4">
          {storyRing && storyRing.count > 0 ? (
            <Link
              to={`/stories?user=${encodeURIComponent(profile.username)}&back=${encodeURIComponent(`/${profile.username}`)}`}
              className={`inline-block ${storyRingClass(storyRing.unseen > 0)}`}
              aria-label={
                storyRing.unseen > 0
                  ? t("{{name}}, new stories", { name: profile.name })
                  : t("Stories of {{name}}", { name: profile.name })
              }
              data-story-ring={storyRing.unseen > 0 ? "unseen" : "seen"}
            >
              {avatar}
            </Link>
          ) : (
            avatar
          )}
          <h1 id="profile-name" className="mt-2 break-words text-2xl font-bold">
            {profile.name}
          </h1>
          <p className="text-slate-600 dark:text-slate-400">
            <Handle username={profile.username} />
          </p>
          {profile.available ? (
            <>
              {profile.bio ? (
                <p dir="auto" className="mt-2 whitespace-pre-line break-words">
                  {profile.bio}
                </p>
              ) : null}
              {profile.location || profile.website ? (
                <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600 dark:text-slate-400">
                  {profile.location ? <span>{profile.location}</span> : null}
                  {profile.website ? (
                    <a href={profile.website} rel="nofollow ugc noopener" target="_blank" className="link break-all">
                      {profile.website.replace(/^https:\/\//, "")}
                    </a>
                  ) : null}
                </p>
              ) : null}
              <dl className="mt-2 flex flex-wrap gap-4 text-sm text-slate-600 dark:text-slate-400">
                {counts.map((count) => (
                  <div key={count.label} className="flex flex-row-reverse gap-1">
                    <dt>{count.label}</dt>
                    <dd className="font-semibold text-slate-900 dark:text-slate-100">{count.value}</dd>
                  </div>
                ))}
              </dl>
            </>
          ) : (
            <p className="mt-4 text-slate-600 dark:text-slate-400">{t("This profile is not available.")}</p>
          )}
          <ProfileActions
            profile={profile}
            viewer={viewer}
            shareUrl={shareUrl}
            moreMenu={moreMenu}
            walletCents={walletCents}
          />
          {profile.available && viewer !== "preview" ? (
            <TrialBanner
              offered={profile}
              trial={trial}
              refusal={trialRefusal}
              walletCents={walletCents}
              signedIn={viewer === "member"}
            />
          ) : null}
          {highlights.length > 0 ? (
            <nav aria-label={t("Highlights")} className="mt-4 flex gap-4 overflow-x-auto pb-2">
              {highlights.map((highlight) => (
                <Link
                  key={highlight.id}
                  to={`/stories?highlight=${highlight.id}&back=${encodeURIComponent(`/${profile.username}`)}`}
                  className="flex w-20 shrink-0 flex-col items-center gap-1 text-center text-xs"
                  data-highlight={highlight.id}
                >
                  <span className="block h-14 w-14 overflow-hidden rounded-full border-2 border-slate-300 bg-slate-200 dark:border-slate-600 dark:bg-slate-800">
                    {highlight.coverUrl ? (
                      <img src={highlight.coverUrl} alt="" className="h-full w-full object-cover" loading="lazy" />
                    ) : null}
                  </span>
                  <span dir="auto" className="w-full truncate-text">
                    {highlight.title}
                  </span>
                </Link>
              ))}
            </nav>
          ) : null}
        </div>
      </section>
      {profile.available ? <ProfileFeed username={profile.username} firstPage={firstPage} /> : null}
    </div>
  );
}
