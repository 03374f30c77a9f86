import { useTranslation } from "react-i18next";
import type { Profile } from "../../worker/domain/profiles/get-profile";

/**
 * A profile as the given viewer may see it. Following, subscribing, the media tab and sharing come with the
 * profiles work; a locked post shows its text and what would unlock it, never its media.
 */
export function ProfileView({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation();
  const lockText = { everyone: "", followers: t("Follow to see this post."), subscribers: t("Subscribe to see this post.") };
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
            <div className="h-24 w-24 rounded-full border-4 border-white bg-slate-300 dark:border-slate-950" />
          )}
          <h1 id="profile-name" className="mt-2 text-2xl font-bold">
            {profile.name}
          </h1>
          <p className="text-slate-500">@{profile.username}</p>
          {profile.bio ? <p className="mt-2 whitespace-pre-line">{profile.bio}</p> : null}
          <dl className="mt-2 flex gap-4 text-sm text-slate-600 dark:text-slate-400">
            <div className="flex flex-row-reverse gap-1">
              <dt>{t("Posts")}</dt>
              <dd className="font-semibold text-slate-900 dark:text-slate-100">{profile.postCount}</dd>
            </div>
            <div className="flex flex-row-reverse gap-1">
              <dt>{t("Media")}</dt>
              <dd className="font-semibold text-slate-900 dark:text-slate-100">{profile.mediaCount}</dd>
            </div>
          </dl>
        </div>
      </section>
      <section aria-label={t("Posts")} className="mt-6 divide-y divide-slate-200 border-t border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {profile.posts.length === 0 ? <p className="p-4 text-slate-600 dark:text-slate-400">{t("No posts yet.")}</p> : null}
        {profile.posts.map((post) => (
          <article key={post.id} className="space-y-3 p-4">
            <p className="text-xs text-slate-500">
              <time dateTime={post.publishedAt}>{new Date(post.publishedAt).toLocaleDateString(i18n.language, { dateStyle: "medium", timeZone: "UTC" })}</time>
            </p>
            {post.text ? <p className="whitespace-pre-line">{post.text}</p> : null}
            {post.media ? (
              post.media.map((item) => <img key={item.url} src={item.url} alt="" loading="lazy" className="w-full rounded-xl" />)
            ) : (
              <div className="flex aspect-[4/3] flex-col items-center justify-center gap-2 rounded-xl bg-gradient-to-br from-slate-300 to-slate-400 text-slate-800 dark:from-slate-700 dark:to-slate-800 dark:text-slate-100">
                <svg viewBox="0 0 24 24" className="h-8 w-8" aria-hidden="true">
                  <path fill="currentColor" d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 8V7a3 3 0 1 1 6 0v3z" />
                </svg>
                <span className="text-sm font-medium">{lockText[post.audience]}</span>
                <span className="text-xs">
                  {t("Media")}: {post.mediaCount}
                </span>
              </div>
            )}
          </article>
        ))}
      </section>
    </div>
  );
}
