import { useTranslation } from "react-i18next";
import { formatCents } from "@shared/money";
import type { EarningSource } from "@shared/contracts/money-constants";

/** Cents as the reader's language writes US dollars. */
export function useMoney() {
  const { i18n } = useTranslation();
  return (cents: number) => formatCents(cents, i18n.language);
}

export function useSourceLabels(): Record<EarningSource, string> {
  const { t } = useTranslation();
  return {
    subscription: t("Subscriptions"),
    tip: t("Tips"),
    post: t("Posts"),
    message: t("Messages"),
    live: t("Live streams"),
  };
}

/** One colour per source, the same in the chart and its legend. */
export const SOURCE_COLOURS: Record<EarningSource, string> = {
  subscription: "fill-brand-600",
  tip: "fill-emerald-500",
  post: "fill-amber-500",
  message: "fill-sky-500",
  live: "fill-rose-500",
};
