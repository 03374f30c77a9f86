import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { getProfile } from "../../worker/domain/profiles/get-profile";
import { ProfileView } from "~/components/profile";
import type { ShellHandle } from "~/components/shell/app-shell";

export const handle: ShellHandle = { rightColumn: "search" };

export async function loader({ params, context }: LoaderFunctionArgs) {
  const username = (params.username ?? "").toLowerCase().slice(0, 64);
  const profile = await getProfile(context.domain.db, username, context.session?.user.id ?? null);
  if (!profile) throw new Response("Not found", { status: 404 });
  return { profile };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: `${data.profile.name} (@${data.profile.username}) · Fanclub` }, { name: "description", content: data.profile.bio.slice(0, 160) }] : [];

/** /{username}: the profile as this viewer may see it. */
export default function ProfilePage() {
  const { profile } = useLoaderData<typeof loader>();
  return <ProfileView profile={profile} />;
}
