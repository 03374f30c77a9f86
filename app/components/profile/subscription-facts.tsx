import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SubscriptionView } from "@shared/contracts/subscriptions";
import { LocalTime } from "~/components/local-time";
import { useOfferText } from "~/components/profile/offer-text";

/**
 * The facts of a subscription beyond its dates, for the profile and Settings → Subscriptions: its plan, a free
 * trial still running, who gave it, an offer's discount still to come, the plan chosen for the next renewal.
 */
export function useSubscriptionFacts(subscription: SubscriptionView): {
  plan: string;
  facts: { key: string; node: ReactNode }[];
} {
  const { t } = useTranslation();
  const text = useOfferText();
  const plan = `${text.planName(subscription)} · ${text.money(subscription.priceCents)}`;
  const facts: { key: string; node: ReactNode }[] = [];
  if (subscription.trialEndsAt && Date.parse(subscription.trialEndsAt) > Date.now())
    facts.push({
      key: "trial",
      node: (
        <>
          {t("Free trial until")} <LocalTime iso={subscription.trialEndsAt} dateOnly />
        </>
      ),
    });
  if (subscription.giftedBy)
    facts.push({
      key: "gift",
      node: (
        <>
          {t("Gift from @{{username}} until", { username: subscription.giftedBy })}{" "}
          <LocalTime iso={subscription.currentPeriodEnd} dateOnly />
        </>
      ),
    });
  if (subscription.offerRenewalsLeft > 0)
    facts.push({
      key: "offer",
      node:
        subscription.offerRenewalsLeft === 1
          ? t("{{percent}}% off your next renewal", { percent: subscription.offerPercent })
          : t("{{percent}}% off your next {{count}} renewals", {
              percent: subscription.offerPercent,
              count: subscription.offerRenewalsLeft,
            }),
    });
  if (subscription.nextPlan)
    facts.push({
      key: "next",
      node: (
        <>
          {t("Changes to {{plan}} ({{price}}) on", {
            plan: text.planName(subscription.nextPlan),
            price: text.money(subscription.nextPlan.priceCents),
          })}{" "}
          <LocalTime iso={subscription.currentPeriodEnd} dateOnly />
        </>
      ),
    });
  return { plan, facts };
}
