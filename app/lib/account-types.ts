import { useTranslation } from "react-i18next";
import type { AccountType } from "@shared/contracts/account-constants";

/** Translated names of the account types of spec §1. */
export function useAccountTypeLabels(): Record<AccountType, string> {
  const { t } = useTranslation();
  return {
    male: t("Male"),
    female: t("Female"),
    couple: t("Couple"),
    gay_couple: t("Gay couple"),
    gay_man: t("Gay man"),
    lesbian: t("Lesbian"),
    lesbian_couple: t("Lesbian couple"),
    studio: t("Studio"),
    swinger: t("Swinger"),
    transsexual: t("Transsexual"),
    transsexual_couple: t("Transsexual couple"),
    other: t("Other"),
  };
}
