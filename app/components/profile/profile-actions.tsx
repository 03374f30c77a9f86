import { Link, useFetcher } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Profile } from "../../../worker/domain/profiles/get-profile";
import type { Period } from "../../../worker/domain/subscriptions/periods";
import { LocalTime } from "~/components/local-time";
import { formatCents } from "~/components/posts/post-card";
import { fetcherError, IntentForm } from "./intent-form";
import { ShareDialog } from "./share-dialog";

/** How the page is looked at: by someone signed in, by a visitor, or by the owner previewing the visitor's view. */
export type ProfileViewer = "member" | "visitor" | "preview";

export function usePeriodLabel() {
  const { t } = useTranslation();
  return (period: Period) => ({ week: t("Weekly"), month: t("Monthly"), year: t("Yearly") })[period];
}

/**
 * The buttons under a profile's name: Follow, Subscribe (or the subscription's state), the owner's Edit and
 * Preview, Share, and `moreMenu` — the "…" menu with Report and Block, supplied by the page.
 */
export function ProfileActions({ profile, viewer, shareUrl, moreMenu }: { profile: Profile; viewer: ProfileViewer; shareUrl: string; moreMenu?: ReactNode }) {
  const { t } = useTranslation();
  const [sharing, setSharing] = useState(false);
  return (
    <div className="mt-3 flex flex-wrap items-start gap-2">
      {profile.isOwn && viewer === "member" ? (
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
      <button type="button" className="btn-secondary" onClick={() => setSharing(true)}>
        {t("Share")}
      </button>
      {moreMenu}
      {sharing ? <ShareDialog url={shareUrl} onClose={() => setSharing(false)} /> : null}
    </div>
  );
}

function RelationshipButtons({ profile, viewer }: { profile: Profile; viewer: ProfileViewer }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const error = fetcherError(fetcher);
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
      <IntentForm fetcher={fetcher} intent={profile.following ? "unfollow" : "follow"}>
        <button type="submit" className={profile.following ? "btn-secondary" : "btn-primary w-auto"} disabled={busy} aria-pressed={profile.following}>
          {profile.following ? t("Following") : t("Follow")}
        </button>
      </IntentForm>
      <SubscriptionButtons profile={profile} fetcher={fetcher} busy={busy} />
      {error ? (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </>
  );
}

function SubscriptionButtons({ profile, fetcher, busy }: { profile: Profile; fetcher: ReturnType<typeof useFetcher>; busy: boolean }) {
  const { t, i18n } = useTranslation();
  const periodLabel = usePeriodLabel();
  const [choosing, setChoosing] = useState(false);
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
        <IntentForm fetcher={fetcher} intent="subscribe" fields={{ period: subscription.period }}>
          <button type="submit" className="btn-secondary" disabled={busy}>
            {t("Resubscribe")}
          </button>
        </IntentForm>
      </div>
    );
  }
  if (profile.plans.length === 0) return null;
  return (
    <div className="relative" onKeyDown={(event) => event.key === "Escape" && setChoosing(false)}>
      <button type="button" className="btn-secondary" aria-expanded={choosing} aria-controls="subscription-plans" onClick={() => setChoosing(!choosing)}>
        {t("Subscribe")}
      </button>
      {choosing ? (
        <ul id="subscription-plans" aria-label={t("Subscription plans")} className="absolute z-20 mt-2 w-64 space-y-1 rounded-xl border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          {profile.plans.map((plan) => (
            <li key={plan.period}>
              <IntentForm fetcher={fetcher} intent="subscribe" fields={{ period: plan.period }}>
                <button type="submit" disabled={busy} className="flex w-full justify-between rounded-lg px-3 py-2 text-start hover:bg-slate-100 dark:hover:bg-slate-800">
                  <span>{periodLabel(plan.period)}</span>
                  <span className="font-semibold">{plan.priceCents === 0 ? t("Free") : formatCents(plan.priceCents, i18n.language)}</span>
                </button>
              </IntentForm>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
