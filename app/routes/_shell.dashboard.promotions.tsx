import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import {
  createPromotion,
  createTrialLink,
  endOffer,
  getCreatorOffers,
  setRetentionOffer,
} from "@worker/domain/offers/creator-offers";
import {
  offerIdFromForm,
  promotionFromForm,
  retentionFromForm,
  trialLinkFromForm,
} from "@worker/domain/offers/offers-form";
import { AppError } from "@worker/domain/shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { number, object, string } from "@shared/shape";
import { creatorOffersShape } from "~/components/dashboard/dashboard-shapes";
import { Promotions } from "~/components/dashboard/promotions";
import { RetentionOffer } from "~/components/dashboard/retention-offer";
import { TrialLinks } from "~/components/dashboard/trial-links";
import { useFreshEarnings } from "~/components/dashboard/use-fresh-earnings";
import { OfflineNotice } from "~/components/offline-notice";
import { handleForm, readForm, requireCreator, type FormResult } from "~/lib/forms.server";
import { offlineAwareAction } from "~/lib/offline-aware-action";
import { offlineLoader, useOfflineCopy } from "~/lib/offline-copies";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  const { db, origin } = context.domain;
  return {
    offers: await getCreatorOffers(db, user.id),
    profileUrl: `${origin}/${user.username}`,
    savedAt: Date.now(),
  };
}

/** Starting a promotion, making a trial link, ending either early, and the retention offer (`intent`). */
export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireCreator(context, request);
  const { db } = context.domain;
  return handleForm(context, async () => {
    const fields = await readForm(request);
    if (fields.intent === "promotion") await createPromotion(db, user, promotionFromForm(fields));
    else if (fields.intent === "trial-link") await createTrialLink(db, user, trialLinkFromForm(fields));
    else if (fields.intent === "end") await endOffer(db, user, offerIdFromForm(fields));
    else if (fields.intent === "retention") await setRetentionOffer(db, user, retentionFromForm(fields));
    else throw new AppError("validation", INVALID_VALUE);
    return { ok: true } satisfies FormResult;
  });
}

// Offline, a form says so and keeps what was typed.
export const clientAction = offlineAwareAction(() => false);

/** Kept for offline reading (app/lib/offline-copies.ts), like the earnings: each offer's claims and revenue. */
const COPY_KEY = "dashboard:promotions";
export const clientLoader = offlineLoader(
  () => COPY_KEY,
  object({ offers: creatorOffersShape, profileUrl: string, savedAt: number }),
);

/** /dashboard/promotions: the creator's promotions, free-trial links and retention offer, with their figures. */
export default function PromotionsTab() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof clientLoader>();
  const { offers, profileUrl, savedAt } = data;
  // A fan's claim pays the creator, which comes with a notification: the figures are read again.
  useFreshEarnings();
  useOfflineCopy(
    COPY_KEY,
    data,
    useMemo(() => ({ offers, profileUrl, savedAt }), [offers, profileUrl, savedAt]),
  );
  return (
    <>
      <OfflineNotice offline={data.offline} />
      <h2 className="sr-only">{t("Promotions")}</h2>
      <div className="divide-y divide-slate-200 dark:divide-slate-800">
        <Promotions promotions={offers.promotions} />
        <TrialLinks trialLinks={offers.trialLinks} profileUrl={profileUrl} />
        <RetentionOffer retention={offers.retention} />
      </div>
    </>
  );
}
