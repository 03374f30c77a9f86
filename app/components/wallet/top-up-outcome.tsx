import { useNavigate, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { PaymentView } from "@shared/contracts/money";
import { Notice } from "~/components/forms";
import { useUpdates } from "~/lib/updates";
import { useMoney } from "~/components/dashboard/use-money";
import { takeTopUpReturn } from "~/components/wallet/top-up-return";

const isPending = (payment: PaymentView) => payment.status === "pending" || payment.status === "requires_confirmation";

/**
 * While the top-up waits for its provider (Stripe's webhook can land after the payer is back), the page reloads
 * its data when the user's updates change: the credit comes with a notification and a NewUpdate push.
 */
function useReloadWhilePending(pending: boolean) {
  const { updates } = useUpdates();
  const { revalidate } = useRevalidator();
  const seen = useRef(updates.notifications);
  useEffect(() => {
    if (seen.current === updates.notifications) return;
    seen.current = updates.notifications;
    if (pending) revalidate();
  }, [updates.notifications, pending, revalidate]);
}

/** Once the top-up has succeeded, back to where it was started from, if that was not the wallet (./top-up-return.ts). */
function useReturnWhenSucceeded(succeeded: boolean) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!succeeded) return;
    const path = takeTopUpReturn();
    if (path) navigate(path, { replace: true });
  }, [succeeded, navigate]);
}

/** The result of a top-up when the payer comes back to /wallet?topUp={id} (from the card form or Stripe). */
export function TopUpOutcome({ payment }: { payment: PaymentView }) {
  const { t } = useTranslation();
  const amount = useMoney()(payment.amountCents);
  useReloadWhilePending(isPending(payment));
  useReturnWhenSucceeded(payment.status === "succeeded");
  if (payment.status === "succeeded")
    return <Notice tone="success">{t("Your wallet was topped up with {{amount}}.", { amount })}</Notice>;
  if (payment.status === "failed") {
    return (
      <Notice tone="error">
        {t("Your top-up of {{amount}} failed.", { amount })} {payment.failureReason ? t(payment.failureReason) : null}
      </Notice>
    );
  }
  return (
    <Notice tone="info">
      {t("Your top-up of {{amount}} is being processed. Your balance updates as soon as the payment is confirmed.", {
        amount,
      })}
    </Notice>
  );
}
