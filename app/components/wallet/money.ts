import { useTranslation } from "react-i18next";

/** Formats cents as dollars in the reader's language ("$25.00", "25,00 $"). */
export function useMoney() {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.language, { style: "currency", currency: "USD" });
  return (cents: number) => format.format(cents / 100);
}
