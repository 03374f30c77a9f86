import type { ReactNode } from "react";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { PaymentPage, PaymentStatus, PaymentView } from "@shared/contracts/money";
import { LocalTime } from "~/components/local-time";
import { EmptyState } from "~/components/page";
import { LoadMore } from "~/components/load-more-button";
import { useSession } from "~/lib/session";
import { usePagedList } from "~/lib/use-paged-list";
import { useMoney } from "~/components/dashboard/use-money";
import { withHandle } from "~/components/handle-sentence";
import { paymentPageShape } from "~/components/wallet/wallet-shapes";

const STATUS_STYLES: Record<PaymentStatus, string> = {
  succeeded: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  pending: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  requires_confirmation: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  failed: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
};

function StatusBadge({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation();
  const labels: Record<PaymentStatus, string> = {
    succeeded: t("Succeeded"),
    pending: t("Pending"),
    requires_confirmation: t("Needs confirmation"),
    failed: t("Failed"),
  };
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLES[status]}`}>{labels[status]}</span>
  );
}

/** What a payment was for, in words: "Top-up", "Tip to @mia.rivers"… (the handle isolated: withHandle). */
function usePaymentTitle() {
  const { t } = useTranslation();
  const sentence = (payment: PaymentView, username: string): string => {
    switch (payment.kind) {
      case "top_up":
        return t("Top-up");
      case "tip":
        return t("Tip to {{username}}", { username });
      case "subscription":
        return t("Subscription to {{username}}", { username });
      case "renewal":
        return t("Renewal for {{username}}", { username });
      case "post":
        return t("Post by {{username}}", { username });
      case "message":
        return t("Message to {{username}}", { username });
      case "live":
        return t("Live stream by {{username}}", { username });
      case "live_tip":
        return t("Tip in {{username}}'s live stream", { username });
    }
  };
  return (payment: PaymentView): ReactNode => {
    const creator = payment.creator?.username ?? "?";
    return withHandle(sentence(payment, `@${creator}`), creator);
  };
}

/** The /wallet history (spec §3 "Payment: date, amount, status"): the loader's first page, then "Load more". */
export function PaymentHistory({ firstPage }: { firstPage: PaymentPage }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const money = useMoney();
  const titleOf = usePaymentTitle();
  const list = usePagedList({ items: firstPage.payments, nextCursor: firstPage.nextCursor }, async (cursor: number) => {
    const page = await api.get(`/wallet?cursor=${cursor}`, paymentPageShape);
    return { items: page.payments, nextCursor: page.nextCursor };
  });
  const payments = list.items;

  if (payments.length === 0) {
    return (
      <EmptyState
        icon="wallet"
        title={t("No payments yet")}
        text={t("Top-ups, subscriptions, tips and purchases will be listed here.")}
      />
    );
  }
  return (
    <section aria-labelledby="payments-heading">
      <h2 id="payments-heading" className="px-4 pt-2 text-lg font-semibold">
        {t("Payments")}
      </h2>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {payments.map((payment) => (
          <li key={payment.id} data-payment={payment.id} className="flex items-start justify-between gap-3 px-4 py-3">
            <div className="min-w-0">
              <p className="truncate font-medium">{titleOf(payment)}</p>
              <p className="text-sm text-slate-600 dark:text-slate-400">
                <LocalTime iso={payment.createdAt} />
              </p>
              {payment.status === "failed" && payment.failureReason ? (
                <p className="text-sm text-red-700 dark:text-red-400">{t(payment.failureReason)}</p>
              ) : null}
              {payment.checkoutPath ? (
                <Link to={payment.checkoutPath} className="link mt-1 inline-block text-sm font-semibold">
                  {t("Complete payment")}
                </Link>
              ) : null}
            </div>
            <div className="flex shrink-0 flex-col items-end gap-1">
              <span
                className={`font-semibold tabular-nums ${payment.kind === "top_up" && payment.status === "succeeded" ? "text-emerald-700 dark:text-emerald-400" : ""}`}
              >
                {payment.kind === "top_up" ? "+" : "−"}
                {money(payment.amountCents)}
              </span>
              <StatusBadge status={payment.status} />
            </div>
          </li>
        ))}
      </ul>
      <LoadMore list={list} />
    </section>
  );
}
