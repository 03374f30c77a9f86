import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaDescriptor } from "@remix-run/cloudflare";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { z } from "zod";
import { followUser } from "@worker/domain/follows/follow-user";
import { unfollowUser } from "@worker/domain/follows/unfollow-user";
import { startConversation } from "@worker/domain/messages/conversations";
import { getProfilePage } from "@worker/domain/profiles/profile-page";
import { trialOfferFor } from "@worker/domain/offers/fan-offers";
import { balanceOf, walletOf } from "@worker/domain/money/ledger";
import { type Profile } from "@shared/contracts/profiles";
import { AppError } from "@worker/domain/shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { parseOrThrow } from "@worker/domain/shared/validation";
import { idText } from "@shared/contracts/text";
import { cancelSubscription } from "@worker/domain/subscriptions/cancel-subscription";
import { subscribe } from "@worker/domain/subscriptions/subscribe";
import { SubscribeFormSchema } from "@shared/contracts/subscription-bodies";
import { BlockButton } from "~/components/moderation/block-button";
import { ReportButton } from "~/components/moderation/report-dialog";
import { ProfileView } from "~/components/profile";
import type { ShellHandle } from "~/components/shell/app-shell";
import { handleForm, readForm, requireViewer, type FormResult } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const handle: ShellHandle = { rightColumn: "search" };

const usernameOf = (params: { username?: string }) => (params.username ?? "").toLowerCase().slice(0, 64);

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  const { db } = context.domain;
  const viewer = context.session?.user ?? null;
  const page = await getProfilePage(db, usernameOf(params), viewer);
  if (!page) throw new Response("Not found", { status: 404 });
  // A free-trial link (/{username}?trial=CODE): the trial this viewer may start, or why not.
  const code = new URL(request.url).searchParams.get("trial");
  const offer =
    code && page.profile.isCreator && !page.profile.isOwn
      ? await trialOfferFor(db, page.profile.userId, code.toLowerCase().slice(0, 64), viewer?.id ?? null)
      : { trial: null, refusal: null };
  return {
    ...page,
    trial: offer.trial,
    trialRefusal: offer.refusal,
    // What the subscribe chooser shows the viewer has to pay with.
    walletCents: viewer && page.profile.isCreator ? await balanceOf(db, walletOf(viewer.id)) : null,
    signedIn: context.session !== null,
    profileUrl: `${context.domain.origin}/${page.profile.username}`,
    origin: context.domain.origin,
  };
}

const CancelSchema = z.object({ subscriptionId: idText });

/**
 * Follow, unfollow, subscribe (also resubscribe) and cancel, from the profile's buttons; Message, as the browser
 * posts it before the page has hydrated (with JavaScript it goes through the API), opens the conversation.
 */
export async function action({ params, context, request }: ActionFunctionArgs) {
  const { user } = requireViewer(context, request);
  return handleForm(context, async () => {
    const fields = await readForm(request);
    const username = usernameOf(params);
    if (fields.intent === "message")
      return redirect(`/messages/${(await startConversation(context.domain, user, username)).id}`);
    if (fields.intent === "follow") await followUser(context.domain, user.id, username);
    else if (fields.intent === "unfollow") await unfollowUser(context.domain, user.id, username);
    else if (fields.intent === "subscribe")
      await subscribe(context.domain, user, username, parseOrThrow(SubscribeFormSchema, fields));
    else if (fields.intent === "cancel")
      await cancelSubscription(context.domain.db, user.id, parseOrThrow(CancelSchema, fields).subscriptionId);
    else throw new AppError("validation", INVALID_VALUE);
    return { ok: true } satisfies FormResult;
  });
}

/**
 * Link previews: name, bio, the cover (or avatar) and the canonical URL. Avatars and covers are public images;
 * nothing from a post ever appears here, so no locked media can leak through a preview.
 */
function profileMeta(profile: Profile, profileUrl: string, origin: string, fallback: string): MetaDescriptor[] {
  const title = `${profile.name} (@${profile.username}) · Fanclub`;
  // Without a bio, what Fanclub is: search results and link previews never show an empty description.
  const description = profile.bio.slice(0, 200) || fallback;
  const image = profile.coverUrl || profile.avatarUrl;
  return [
    { title },
    { name: "description", content: description },
    { property: "og:type", content: "profile" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: profileUrl },
    { property: "profile:username", content: profile.username },
    ...(image ? [{ property: "og:image", content: `${origin}${image}` }] : []),
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    ...(image ? [{ name: "twitter:image", content: `${origin}${image}` }] : []),
  ];
}

export const meta = pageMeta<typeof loader>((t, { data }) =>
  data
    ? profileMeta(
        data.profile,
        data.profileUrl,
        data.origin,
        t("Follow and subscribe to creators, see their exclusive posts, chat and tip."),
      )
    : [titleTag(t("Page not found"))],
);

/** /{username}: the profile as this viewer may see it. */
export default function ProfilePage() {
  const { profile, viewerBlocks, signedIn, profileUrl, storyRing, highlights, walletCents, trial, trialRefusal } =
    useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  const moreMenu =
    profile.viewer.canReport || profile.viewer.canBlock ? (
      <>
        {profile.viewer.canReport ? <ReportButton target={{ kind: "user", username: profile.username }} /> : null}
        {profile.viewer.canBlock ? (
          <BlockButton username={profile.username} blocked={viewerBlocks} onChange={() => revalidate()} />
        ) : null}
      </>
    ) : undefined;
  return (
    <ProfileView
      profile={profile}
      viewer={signedIn ? "member" : "visitor"}
      shareUrl={profileUrl}
      moreMenu={moreMenu}
      storyRing={storyRing}
      highlights={highlights}
      walletCents={walletCents}
      trial={trial}
      trialRefusal={trialRefusal}
    />
  );
}
