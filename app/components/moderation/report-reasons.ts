import { useTranslation } from "react-i18next";
import type { ReportReason } from "@shared/contracts/moderation";

/** Spec §8's report reasons in the reader's language, in the spec's order. */
export function useReportReasonLabels(): Record<ReportReason, string> {
  const { t } = useTranslation();
  return {
    didnt_like: t("I just don't like it"),
    revenge_porn: t("Revenge porn"),
    exposed_personal_information: t("Exposed personal information"),
    impersonation: t("Impersonation"),
    underage_material: t("Underage material"),
    trademark_infringement: t("Trademark infringement"),
    spam: t("Spam"),
    prostitution: t("Prostitution"),
    weapons: t("Weapons"),
    drugs: t("Drugs"),
    other: t("Other"),
  };
}
