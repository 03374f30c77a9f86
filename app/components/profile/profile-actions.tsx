import { Link, useActionData, useFetcher } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Profile } from "@shared/contracts/profiles";
import { LocalTime } from "~/components/local-time";
import { MessageButton } from "~/components/messages/message-button";
import { TipButton } from "~/components/money/tip-button";
import { formatCents } from "@shared/money";
import { useServerText } from "~/lib/server-text";
import { fetcherError, IntentForm } from "~/components/profile/intent-form";
import { ShareDialog } from "~/components/profile/share-dialog";
import { SubscribeButton } from "~/components/profile/subscribe-dialog";

/** How the page is looked at: by someone signed in, by a visitor, or by the owner previewing the visitor's view. */
export type ProfileViewer = "member" | "visitor" | "preview";

/**
 * The buttons under a profile's name: Follow, Subscribe (or the subscription's state), Message, Tip (creators), the
 * owner's Edit and Preview, Share, and `moreMenu` — the "…" menu with Report and Block, supplied by the page.
 * A creator's per-message price is shown under them.
 */
export function ProfileActions({
  profile,
  viewer,
  shareUrl,
  moreMenu,
}: {
  profile: Profile;
  viewer: ProfileViewer;
  shareUrl: string;
  moreMenu?: ReactNode;
}) {
  const { t } = useTranslation();
  const [sharing, setSharing] = useState(false);
  return (
    <div className="mt-3 flex flex-wrap items-start gap-2">
      {profile.viewer.canEdit ? (
        <>
          <Link to="/settings/profile" className="btn-secondary">
            {t("Edit profile")}
          </Link>
          <Link to={`/${profile.username}/preview`} className="btn-secondary">
            {t("Preview as visitor")}
          </Link>
        </>
      ) : (
        <RelationshipButtons profile={profile} viewer={viewer} />
      )}
      <button type="button" className="btn-secondary" data-needs-js onClick={() => setSharing(true)}>
        {t("Share")}
      </button>
      {moreMenu}
      {sharing ? <ShareDialog url={shareUrl} onClose={() => setSharing(false)} /> : null}
      {profile.messagePriceCents > 0 ? <MessagePrice priceCents={profile.messagePriceCents} /> : null}
    </div>
  );
}

/** The creator's price per message, kept from the server's text while the page hydrates (no currency formatter built then). */
function MessagePrice({ priceCents }: { priceCents: number }) {
  const { t, i18n } = useTranslation();
  const [id, text] = useServerText(`${priceCents}|${i18n.language}`, () =>
    t("Messages cost {{price}} each.", { price: formatCents(priceCents, i18n.language) }),
  );
  return (
    <p id={id} className="basis-full text-sm text-slate-600 dark:text-slate-400" data-message-price>
      {text}
    </p>
  );
}

function RelationshipButtons({ profile, viewer }: { profile: Profile; viewer: ProfileViewer }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  // A form the browser posted itself (before the hydration, or without JavaScript) answers as the page's action data.
  const posted = useActionData<{ ok: boolean; message?: string }>();
  const error =
    fetcherError(fetcher) ??
    (fetcher.state === "idle" && fetcher.data === undefined && posted?.ok === false ? (posted.message ?? null) : null);
  const busy = fetcher.state !== "idle";
  if (!profile.available) return null;
  if (viewer !== "member") {
    const signIn = `/login?redirectTo=${encodeURIComponent(`/${profile.username}`)}`;
    // The preview shows the visitor's buttons, inert: the owner is looking, not following themselves.
    return viewer === "preview" ? (
      <>
        <button type="button" className="btn-primary w-auto" disabled>
          {t("Follow")}
        </button>
        {profile.plans.length > 0 ? (
          <button type="button" className="btn-secondary" disabled>
            {t("Subscribe")}
          </button>
        ) : null}
      </>
    ) : (
      <>
        <Link to={signIn} className="btn-primary w-auto">
          {t("Follow")}
        </Link>
        {profile.plans.length > 0 ? (
          <Link to={signIn} className="btn-secondary">
            {t("Subscribe")}
          </Link>
        ) : null}
      </>
    );
  }
  return (
    <>
      {profile.viewer.canFollow ? (
        <IntentForm fetcher={fetcher} intent={profile.following ? "unfollow" : "follow"}>
          <button
            type="submit"
            className={profile.following ? "btn-secondary" : "btn-primary w-auto"}
            disabled={busy}
            aria-pressed={profile.following}
          >
            {profile.following ? t("Following") : t("Follow")}
          </button>
        </IntentForm>
      ) : null}
      <SubscriptionButtons profile={profile} fetcher={fetcher} busy={busy} />
      <MessageButton username={profile.username} className="btn-secondary" />
      {profile.viewer.canTip ? (
        <TipButton target={{ username: profile.username }} creatorName={profile.name} className="btn-secondary">
          {t("Tip")}
        </TipButton>
      ) : null}
      {error ? (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </>
  );
}

function SubscriptionButtons({
  profile,
  fetcher,
  busy,
}: {
  profile: Profile;
  fetcher: ReturnType<typeof useFetcher>;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const subscription = profile.subscription;
  if (subscription?.status === "active") {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-slate-600 dark:text-slate-400">
          {t("Subscribed, renews on")} <LocalTime iso={subscription.currentPeriodEnd} />
        </span>
        <IntentForm fetcher={fetcher} intent="cancel" fields={{ subscriptionId: subscription.id }}>
          <button type="submit" className="btn-secondary" disabled={busy}>
            {t("Cancel subscription")}
          </button>
        </IntentForm>
      </div>
    );
  }
  if (subscription?.status === "cancelled") {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-slate-600 dark:text-slate-400">
          {t("Subscribed until")} <LocalTime iso={subscription.currentPeriodEnd} />
        </span>
        <IntentForm
          fetcher={fetcher}
          intent="subscribe"
          fields={{ period: subscription.period, priceCents: subscription.priceCents }}
        >
          <button type="submit" className="btn-secondary" disabled={busy}>
            {t("Resubscribe")}
          </button>
        </IntentForm>
      </div>
    );
  }
  if (profile.plans.length === 0) return null;
  return <SubscribeButton username={profile.username} creatorName={profile.name} plans={profile.plans} />;
}
