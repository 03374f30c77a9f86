import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getProfile } from "../../worker/domain/profiles/get-profile";
import { Notice } from "~/components/forms";
import { ProfileView } from "~/components/profile";
import type { ShellHandle } from "~/components/shell/app-shell";

export const handle: ShellHandle = { rightColumn: "search" };

/** /{username}/preview: the profile exactly as a visitor sees it (no follow, no subscription), for its owner to check. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const username = (params.username ?? "").toLowerCase().slice(0, 64);
  const profile = await getProfile(context.domain.db, username, null);
  if (!profile) throw new Response("Not found", { status: 404 });
  return { profile };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: `${data.profile.name} (@${data.profile.username}) · Fanclub` }, { name: "robots", content: "noindex" }] : []);

export default function ProfilePreview() {
  const { t } = useTranslation();
  const { profile } = useLoaderData<typeof loader>();
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
      <ProfileView profile={profile} />
    </>
  );
}
