import { Link, useActionData, useFetcher } from "@remix-run/react";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Profile } from "@shared/contracts/profiles";
import { LocalTime } from "~/components/local-time";
import { MessageButton } from "~/components/messages/message-button";
import { AddToList } from "~/components/fan-lists/add-to-list";
import { TipButton } from "~/components/money/tip-button";
import { formatCents } from "@shared/money";
import { useServerText } from "~/lib/server-text";
import { fetcherError, IntentForm } from "~/components/profile/intent-form";
import { ShareDialog } from "~/components/profile/share-dialog";
import { SubscribeButton, useSubscribeLabel } from "~/components/profile/subscribe-dialog";
import { useAttemptKey } from "~/components/money/attempt-key";
import { useSubscriptionFacts } from "~/components/profile/subscription-facts";

// A subscriber's dialogs (change plan, cancel, gift) are fetched when first opened: most visits open none.
const dialogs = () => import("~/components/profile/subscription-dialogs");
const ChangePlanDialog = lazy(() => dialogs().then((module) => ({ default: module.ChangePlanDialog })));
const CancelDialog = lazy(() => dialogs().then((module) => ({ default: module.CancelDialog })));
const GiftDialog = lazy(() => dialogs().then((module) => ({ default: module.GiftDialog })));

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
  walletCents = null,
}: {
  profile: Profile;
  viewer: ProfileViewer;
  shareUrl: string;
  moreMenu?: ReactNode;
  /** The viewer's wallet balance, shown by the subscribe and gift dialogs. */
  walletCents?: number | null;
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
        <RelationshipButtons profile={profile} viewer={viewer} walletCents={walletCents} />
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

function RelationshipButtons({
  profile,
  viewer,
  walletCents,
}: {
  profile: Profile;
  viewer: ProfileViewer;
  walletCents: number | null;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  // A form the browser posted itself (before the hydration, or without JavaScript) answers as the page's action data.
  const posted = useActionData<{ ok: boolean; message?: string }>();
  const error =
    fetcherError(fetcher) ??
    (fetcher.state === "idle" && fetcher.data === undefined && posted?.ok === false ? (posted.message ?? null) : null);
  const busy = fetcher.state !== "idle";
  if (!profile.available) return null;
  if (viewer !== "member") return <VisitorButtons profile={profile} viewer={viewer} />;
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
      <SubscriptionButtons profile={profile} fetcher={fetcher} busy={busy} walletCents={walletCents} />
      <GiftButton profile={profile} walletCents={walletCents} />
      <MessageButton username={profile.username} className="btn-secondary" />
      <AddToList username={profile.username} />
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

/**
 * A visitor's Follow and Subscribe (with the price) lead to the sign-in and back; the owner's preview shows them
 * inert: the owner is looking, not following themselves.
 */
function VisitorButtons({ profile, viewer }: { profile: Profile; viewer: "visitor" | "preview" }) {
  const { t } = useTranslation();
  const subscribeLabel = useSubscribeLabel(profile);
  const signIn = `/login?redirectTo=${encodeURIComponent(`/${profile.username}`)}`;
  return viewer === "preview" ? (
    <>
      <button type="button" className="btn-primary w-auto" disabled>
        {t("Follow")}
      </button>
      {profile.plans.length > 0 ? (
        <span className="flex flex-col items-start gap-1">
          <button type="button" className="btn-secondary" disabled aria-describedby={subscribeLabel.endingId}>
            {subscribeLabel.content}
          </button>
          {subscribeLabel.endingLine}
        </span>
      ) : null}
    </>
  ) : (
    <>
      <Link to={signIn} className="btn-primary w-auto">
        {t("Follow")}
      </Link>
      {profile.plans.length > 0 ? (
        <span className="flex flex-col items-start gap-1">
          <Link to={signIn} className="btn-secondary" aria-describedby={subscribeLabel.endingId}>
            {subscribeLabel.content}
          </Link>
          {subscribeLabel.endingLine}
        </span>
      ) : null}
    </>
  );
}

/**
 * A live subscription's state (its plan, a trial, a gift, an offer's discount, a plan chosen for the next renewal)
 * with Change plan and Cancel; a cancelled one's end with Resubscribe; else the Subscribe button. Cancel is a form
 * the browser can post itself before the page has hydrated; once hydrated it opens the dialog, which shows the
 * creator's retention offer first.
 */
function SubscriptionButtons({
  profile,
  fetcher,
  busy,
  walletCents,
}: {
  profile: Profile;
  fetcher: ReturnType<typeof useFetcher>;
  busy: boolean;
  walletCents: number | null;
}) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<"plan" | "cancel" | null>(null);
  const subscription = profile.subscription;
  if (subscription?.status === "active") {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <SubscriptionFacts subscription={subscription} />
        <button type="button" className="btn-secondary" data-needs-js onClick={() => setDialog("plan")}>
          {t("Change plan")}
        </button>
        <IntentForm fetcher={fetcher} intent="cancel" fields={{ subscriptionId: subscription.id }}>
          <button
            type="submit"
            className="btn-secondary"
            disabled={busy}
            onClick={(event) => {
              event.preventDefault();
              setDialog("cancel");
            }}
          >
            {t("Cancel subscription")}
          </button>
        </IntentForm>
        <Suspense fallback={null}>
          {dialog === "plan" ? (
            <ChangePlanDialog subscription={subscription} offered={profile} onClose={() => setDialog(null)} />
          ) : dialog === "cancel" ? (
            <CancelDialog subscription={subscription} onClose={() => setDialog(null)} />
          ) : null}
        </Suspense>
      </div>
    );
  }
  if (subscription?.status === "cancelled") {
    return (
      <div className="flex flex-wrap items-center gap-2">
        {/* A gift never renews: it is a cancelled subscription from the start, which says who gave it. */}
        <span className="text-sm text-slate-600 dark:text-slate-400" data-subscription-facts>
          {subscription.giftedBy
            ? t("Gift from @{{username}} until", { username: subscription.giftedBy })
            : t("Subscribed until")}{" "}
          <LocalTime iso={subscription.currentPeriodEnd} />
        </span>
        <IntentForm
          fetcher={fetcher}
          intent="subscribe"
          fields={{
            period: subscription.period,
            priceCents: subscription.priceCents,
            ...(subscription.bundleMonths ? { bundleMonths: subscription.bundleMonths } : {}),
          }}
        >
          <button type="submit" className="btn-secondary" disabled={busy}>
            {t("Resubscribe")}
          </button>
        </IntentForm>
      </div>
    );
  }
  if (profile.plans.length === 0) return null;
  return <SubscribeButton offered={profile} walletCents={walletCents} />;
}

/** What an active subscription is: renewal, plan, and a trial, gift, discount or next plan when there is one. */
function SubscriptionFacts({ subscription }: { subscription: NonNullable<Profile["subscription"]> }) {
  const { t } = useTranslation();
  const { plan, facts } = useSubscriptionFacts(subscription);
  return (
    <div className="text-sm text-slate-600 dark:text-slate-400" data-subscription-facts>
      <p>
        {t("Subscribed, renews on")} <LocalTime iso={subscription.currentPeriodEnd} />
      </p>
      <p>{plan}</p>
      {facts.map((fact) => (
        <p key={fact.key}>{fact.node}</p>
      ))}
    </div>
  );
}

/** "Gift a subscription": on another creator's profile whose monthly plan is paid. */
function GiftButton({ profile, walletCents }: { profile: Profile; walletCents: number | null }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const attempt = useAttemptKey();
  const monthly = profile.plans.find((plan) => plan.period === "month");
  if (!profile.isCreator || profile.isOwn || !monthly || monthly.priceCents === 0) return null;
  return (
    <>
      <button
        type="button"
        className="btn-secondary"
        data-needs-js
        onClick={() => {
          attempt.renew();
          setOpen(true);
        }}
      >
        {t("Gift a subscription")}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <GiftDialog
            offered={profile}
            monthlyCents={monthly.priceCents}
            walletCents={walletCents}
            attemptKey={attempt.key}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
