import { useTranslation } from "react-i18next";
import type { PayoutView } from "@shared/contracts/money";

const STYLES: Record<PayoutView["status"], string> = {
  requested: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  paid: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  rejected: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

export function PayoutStatus({ status }: { status: PayoutView["status"] }) {
  const { t } = useTranslation();
  const label = { requested: t("Requested"), paid: t("Paid"), rejected: t("Rejected") }[status];
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STYLES[status]}`}>{label}</span>;
}
