import { useTranslation } from "react-i18next";
import type { AdminDispute } from "@shared/contracts/money";
import { LocalTime } from "~/components/local-time";
import { EmptyState } from "~/components/page";
import { useMoney } from "~/components/dashboard/use-money";
import { Handle } from "~/components/handle";

/** The admin's list of top-ups taken back: refunds and chargebacks, newest first, with what each holds. */
export function DisputeList({ disputes }: { disputes: AdminDispute[] }) {
  const { t } = useTranslation();
  const money = useMoney();
  if (disputes.length === 0)
    return (
      <EmptyState
        icon="wallet"
        title={t("No disputes or refunds")}
        text={t("Card payments refunded or disputed with the bank will show up here.")}
      />
    );
  const kinds: Record<AdminDispute["kind"], string> = { refund: t("Refund"), dispute: t("Chargeback") };
  const statuses: Record<AdminDispute["status"], string> = {
    refunded: t("Refunded"),
    open: t("Open"),
    won: t("Won"),
    lost: t("Lost"),
  };
  // Stripe's reason codes; an unknown one is shown as it came.
  const reasons: Record<string, string> = {
    refund: t("Refunded from the Stripe dashboard"),
    fraudulent: t("Fraudulent"),
    duplicate: t("Duplicate"),
    unrecognized: t("Unrecognized"),
    product_not_received: t("Product not received"),
    product_unacceptable: t("Product unacceptable"),
    credit_not_processed: t("Credit not processed"),
    general: t("General"),
  };
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800">
      {disputes.map((dispute) => (
        <li
          key={dispute.id}
          className="space-y-2 p-4"
          aria-label={t("{{kind}} of @{{username}}", { kind: kinds[dispute.kind], username: dispute.fan.username })}
        >
          <p className="font-semibold">
            {kinds[dispute.kind]} · {money(dispute.amountCents)} · {dispute.fan.name}{" "}
            <span className="font-normal text-slate-600 dark:text-slate-400">
              <Handle username={dispute.fan.username} />
            </span>
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600 dark:text-slate-400">{t("Status")}</dt>
            <dd data-dispute-status>{statuses[dispute.status]}</dd>
            <dt className="text-slate-600 dark:text-slate-400">{t("Reason")}</dt>
            <dd>{reasons[dispute.reason] ?? dispute.reason}</dd>
            <dt className="text-slate-600 dark:text-slate-400">{t("Opened")}</dt>
            <dd>
              <LocalTime iso={dispute.openedAt} />
            </dd>
            <dt className="text-slate-600 dark:text-slate-400">{t("Closed")}</dt>
            <dd>{dispute.closedAt ? <LocalTime iso={dispute.closedAt} /> : "–"}</dd>
            <dt className="text-slate-600 dark:text-slate-400">{t("Owed by the fan")}</dt>
            <dd>{money(dispute.owedCents)}</dd>
            <dt className="text-slate-600 dark:text-slate-400">
              {dispute.status === "lost" ? t("Earnings taken back") : t("Earnings held")}
            </dt>
            <dd>{money(dispute.heldCents)}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
