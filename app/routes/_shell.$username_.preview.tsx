import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getProfile } from "@worker/domain/profiles/get-profile";
import { Notice } from "~/components/forms";
import { ProfileView } from "~/components/profile";
import type { ShellHandle } from "~/components/shell/app-shell";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const handle: ShellHandle = { rightColumn: "search" };

/**
 * /{username}/preview: the owner's profile exactly as a visitor sees it (no follow, no subscription, no
 * follower count). Anyone but the owner gets a 404, as if the page did not exist.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const username = (params.username ?? "").toLowerCase().slice(0, 64);
  if (!context.session || context.session.user.username !== username) throw new Response("Not found", { status: 404 });
  const profile = await getProfile(context.domain.db, username, null);
  if (!profile) throw new Response("Not found", { status: 404 });
  return { profile, profileUrl: `${context.domain.origin}/${profile.username}` };
}

export const meta = pageMeta<typeof loader>((t, { data }) => [
  titleTag(data ? `${data.profile.name} (@${data.profile.username})` : t("Page not found")),
  { name: "robots", content: "noindex" },
]);

export default function ProfilePreview() {
  const { t } = useTranslation();
  const { profile, profileUrl } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="p-4">
        <Notice tone="info">
          {t("This is how visitors see this profile.")}{" "}
          <Link to={`/${profile.username}`} className="link">
            {t("Back to the profile")}
          </Link>
        </Notice>
      </div>
      <ProfileView profile={profile} viewer="preview" shareUrl={profileUrl} />
    </>
  );
}
