import { useTranslation } from "react-i18next";
import type { PaymentView } from "../../../worker/domain/money/payments";
import { Notice } from "~/components/forms";
import { useMoney } from "./money";

/** The result of a top-up when the payer comes back to /wallet?topUp={id} (from the card form or Stripe). */
export function TopUpOutcome({ payment }: { payment: PaymentView }) {
  const { t } = useTranslation();
  const amount = useMoney()(payment.amountCents);
  if (payment.status === "succeeded") return <Notice tone="success">{t("Your wallet was topped up with {{amount}}.", { amount })}</Notice>;
  if (payment.status === "failed") {
    return (
      <Notice tone="error">
        {t("Your top-up of {{amount}} failed.", { amount })} {payment.failureReason ? t(payment.failureReason) : null}
      </Notice>
    );
  }
  return <Notice tone="info">{t("Your top-up of {{amount}} is being processed. Your balance updates as soon as the payment is confirmed.", { amount })}</Notice>;
}
