import { useTranslation } from "react-i18next";
import type { PayoutPage } from "@shared/contracts/money";
import { LocalTime } from "~/components/local-time";
import { EmptyState } from "~/components/page";
import { LoadMore } from "~/components/load-more-button";
import { useSession } from "~/lib/session";
import { usePagedList } from "~/lib/use-paged-list";
import { PayoutStatus } from "~/components/dashboard/payout-status";
import { useMoney } from "~/components/dashboard/use-money";
import { payoutPageShape } from "~/components/dashboard/dashboard-shapes";

/** Dashboard → Payout history: date, status (with the reason of a rejection), amount and masked destination. */
export function PayoutHistory({ first }: { first: PayoutPage }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { api } = useSession();
  const list = usePagedList({ items: first.payouts, nextCursor: first.nextCursor }, async (cursor: number) => {
    const page = await api.get(`/payouts?cursor=${cursor}`, payoutPageShape);
    return { items: page.payouts, nextCursor: page.nextCursor };
  });
  const payouts = list.items;
  if (payouts.length === 0)
    return (
      <EmptyState
        icon="wallet"
        title={t("No payouts yet")}
        text={t("Earnings become available for payout 7 business days after they are made.")}
        action={{ to: "/dashboard/withdraw", label: t("Request a withdrawal") }}
      />
    );
  return (
    <div className="p-4">
      <table className="w-full text-left text-sm">
        <thead className="text-slate-600 dark:text-slate-400">
          <tr>
            <th scope="col" className="py-2 pe-2 font-medium">
              {t("Date")}
            </th>
            <th scope="col" className="py-2 pe-2 font-medium">
              {t("Status")}
            </th>
            <th scope="col" className="py-2 pe-2 text-end font-medium">
              {t("Amount")}
            </th>
            <th scope="col" className="py-2 font-medium">
              {t("Sent to")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {payouts.map((payout) => (
            <tr key={payout.id} data-testid="payout-row">
              <td className="py-2 pe-2">
                <LocalTime iso={payout.createdAt} />
              </td>
              <td className="py-2 pe-2">
                <PayoutStatus status={payout.status} />
                {payout.rejectionReason ? (
                  <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{payout.rejectionReason}</p>
                ) : null}
              </td>
              <td className="py-2 pe-2 text-end font-medium">{money(payout.amountCents)}</td>
              <td className="py-2">
                {payout.method === "paypal" ? t("PayPal") : t("Bank transfer")} {payout.destination}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <LoadMore list={list} />
    </div>
  );
}
