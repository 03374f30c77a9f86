import { useTranslation } from "react-i18next";
import type { Period } from "@shared/contracts/subscription-constants";
import { formatCents } from "@shared/money";
import { timeLeft } from "~/components/profile/offer-choices";
import { usePeriodLabel } from "~/components/profile/period-label";

/** A plan as the offer texts name it: its period, and a bundle's months. */
export interface PlanOf {
  period: Period;
  bundleMonths: number | null;
}

/**
 * The words of plans and offers in the reader's language: a plan's name ("Monthly", "3 months"), a price per
 * period ("$9.99/month", "$26.97 every 3 months"), and how long a promotion still runs ("ends in 2 days · 12 left").
 */
export function useOfferText() {
  const { t, i18n } = useTranslation();
  const periodLabel = usePeriodLabel();
  const money = (cents: number) => (cents === 0 ? t("Free") : formatCents(cents, i18n.language));
  const planName = (plan: PlanOf) =>
    plan.bundleMonths ? t("{{count}} months", { count: plan.bundleMonths }) : periodLabel(plan.period);
  const perPeriod = (cents: number, plan: PlanOf) => {
    const price = formatCents(cents, i18n.language);
    if (plan.bundleMonths) return t("{{price}} every {{count}} months", { price, count: plan.bundleMonths });
    return {
      week: t("{{price}}/week", { price }),
      month: t("{{price}}/month", { price }),
      year: t("{{price}}/year", { price }),
    }[plan.period];
  };
  const freeFor = (days: number) => (days === 1 ? t("Free for 1 day") : t("Free for {{count}} days", { count: days }));
  /** "ends in 2 days · 12 left" (without a claim limit, only the first part). */
  const ending = (endsAt: string, claimsLeft: number | null, now: number) => {
    const left = timeLeft(endsAt, now);
    const when = new Intl.RelativeTimeFormat(i18n.language, { numeric: "always" }).format(left.value, left.unit);
    const ends = t("ends {{when}}", { when });
    return claimsLeft === null ? ends : `${ends} · ${t("{{count}} left", { count: claimsLeft })}`;
  };
  return { money, planName, perPeriod, freeFor, ending };
}
