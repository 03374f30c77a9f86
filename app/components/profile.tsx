import { useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Profile } from "@shared/contracts/posts";
import { ProfileActions, type ProfileViewer } from "./profile/profile-actions";
import { ProfileFeed } from "./profile/profile-feed";

export type { Profile, ProfileViewer };

/**
 * /{username} as the server presented it for this viewer: cover, avatar, name, bio, counts, the actions and the
 * Posts / Media tabs. Across a block only the name and avatar remain. `moreMenu` is the "…" menu (Report,
 * Block) that the page wires in.
 */
export function ProfileView({ profile, viewer, shareUrl, moreMenu }: { profile: Profile; viewer: ProfileViewer; shareUrl: string; moreMenu?: ReactNode }) {
  const { t } = useTranslation();
  const firstPage = useMemo(() => ({ posts: profile.posts, nextCursor: profile.nextCursor }), [profile]);
  const counts = [
    { label: t("Posts"), value: profile.postCount },
    { label: t("Media"), value: profile.mediaCount },
    { label: t("Likes"), value: profile.likeCount },
    ...(profile.followerCount === null ? [] : [{ label: t("Followers"), value: profile.followerCount }]),
  ];
  return (
    <div>
      <section aria-labelledby="profile-name">
        <div className="h-40 bg-slate-200 dark:bg-slate-800 sm:h-52">
          {profile.coverUrl ? <img src={profile.coverUrl} alt="" className="h-full w-full object-cover" /> : null}
        </div>
        <div className="-mt-12 px-4">
          {profile.avatarUrl ? (
            <img src={profile.avatarUrl} alt={t("Avatar of {{name}}", { name: profile.name })} className="h-24 w-24 rounded-full border-4 border-white object-cover dark:border-slate-950" />
          ) : (
            <div className="h-24 w-24 rounded-full border-4 border-white bg-slate-300 dark:border-slate-950 dark:bg-slate-700" />
          )}
          <h1 id="profile-name" className="mt-2 break-words text-2xl font-bold">
            {profile.name}
          </h1>
          <p className="text-slate-600 dark:text-slate-400">@{profile.username}</p>
          {profile.available ? (
            <>
              {profile.bio ? <p className="mt-2 whitespace-pre-line break-words">{profile.bio}</p> : null}
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
          <ProfileActions profile={profile} viewer={viewer} shareUrl={shareUrl} moreMenu={moreMenu} />
        </div>
      </section>
      {profile.available ? <ProfileFeed username={profile.username} firstPage={firstPage} /> : null}
    </div>
  );
}
