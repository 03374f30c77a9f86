import { useTranslation } from "react-i18next";
import type { QueuedPayout } from "@shared/contracts/money";
import { DecisionForms } from "~/components/moderation/decision-forms";
import { LocalTime } from "~/components/local-time";
import { EmptyState } from "~/components/page";
import { useMoney } from "~/components/dashboard/use-money";
import { Handle } from "~/components/handle";

/** The admin's queue of requested payouts, oldest first: who, how much, where to send it; paid or rejected. */
export function PayoutQueue({
  payouts,
  errors,
}: {
  payouts: QueuedPayout[];
  errors: { payoutId?: number; reason?: string[] };
}) {
  const { t } = useTranslation();
  const money = useMoney();
  if (payouts.length === 0)
    return (
      <EmptyState
        icon="wallet"
        title={t("No payouts to process")}
        text={t("Withdrawal requests from creators will show up here.")}
      />
    );
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800">
      {payouts.map((payout) => (
        <li
          key={payout.id}
          className="space-y-3 p-4"
          aria-label={t("Payout to @{{username}}", { username: payout.creator.username })}
        >
          <div>
            <p className="font-semibold">
              {money(payout.amountCents)} · {payout.creator.name}{" "}
              <span className="font-normal text-slate-600 dark:text-slate-400">
                <Handle username={payout.creator.username} />
              </span>
            </p>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {payout.creator.email} · {t("Requested")} <LocalTime iso={payout.createdAt} />
            </p>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            {payout.destination.kind === "paypal" ? (
              <>
                <dt className="text-slate-600 dark:text-slate-400">{t("PayPal email")}</dt>
                <dd className="break-all">{payout.destination.paypalEmail}</dd>
              </>
            ) : (
              <>
                <dt className="text-slate-600 dark:text-slate-400">{t("Account holder")}</dt>
                <dd>{payout.destination.accountHolder}</dd>
                <dt className="text-slate-600 dark:text-slate-400">{t("Bank name")}</dt>
                <dd>{payout.destination.bankName}</dd>
                <dt className="text-slate-600 dark:text-slate-400">{t("IBAN or account number")}</dt>
                <dd className="break-all font-mono">{payout.destination.accountNumber}</dd>
                <dt className="text-slate-600 dark:text-slate-400">{t("SWIFT/BIC or routing code")}</dt>
                <dd className="font-mono">{payout.destination.routingCode}</dd>
                <dt className="text-slate-600 dark:text-slate-400">{t("Country")}</dt>
                <dd>{payout.destination.country}</dd>
              </>
            )}
          </dl>
          <DecisionForms
            idField="payoutId"
            id={payout.id}
            accept={{ intent: "payout-paid", label: t("Mark paid"), pendingText: t("Saving…") }}
            rejectIntent="payout-reject"
            reasonErrors={errors.payoutId === payout.id ? errors.reason : undefined}
          />
        </li>
      ))}
    </ul>
  );
}
