import { useTranslation } from "react-i18next";
import type { Period } from "@shared/contracts/subscription-constants";

/** "Weekly", "Monthly", "Yearly": a plan's period as the screens name it. */
export function usePeriodLabel() {
  const { t } = useTranslation();
  return (period: Period) => ({ week: t("Weekly"), month: t("Monthly"), year: t("Yearly") })[period];
}
