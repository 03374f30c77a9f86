import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PayoutView } from "../../../worker/domain/money/withdrawals";
import { LocalTime } from "~/components/local-time";
import { EmptyState } from "~/components/page";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { PayoutStatus } from "./payout-status";
import { useMoney } from "./use-money";

/** Dashboard → Payout history: date, status (with the reason of a rejection), amount and masked destination. */
export function PayoutHistory({ first }: { first: { payouts: PayoutView[]; nextCursor: number | null } }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { api } = useSession();
  const [payouts, setPayouts] = useState(first.payouts);
  const [cursor, setCursor] = useState(first.nextCursor);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (payouts.length === 0) return <EmptyState icon="wallet" title={t("No payouts yet")} text={t("Earnings become available for payout 7 business days after they are made.")} action={{ to: "/dashboard/withdraw", label: t("Request a withdrawal") }} />;
  async function loadMore() {
    setLoading(true);
    setFailure(null);
    try {
      const page = await api.get<{ payouts: PayoutView[]; nextCursor: number | null }>(`/payouts?cursor=${cursor}`);
      setPayouts((shown) => [...shown, ...page.payouts]);
      setCursor(page.nextCursor);
    } catch (error) {
      if (error instanceof ApiError) setFailure(error.body.message);
    } finally {
      setLoading(false);
    }
  }
  return (
    <div className="p-4">
      <table className="w-full text-left text-sm">
        <thead className="text-slate-600 dark:text-slate-400">
          <tr>
            <th scope="col" className="py-2 pe-2 font-medium">{t("Date")}</th>
            <th scope="col" className="py-2 pe-2 font-medium">{t("Status")}</th>
            <th scope="col" className="py-2 pe-2 text-end font-medium">{t("Amount")}</th>
            <th scope="col" className="py-2 font-medium">{t("Sent to")}</th>
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
                {payout.rejectionReason ? <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{payout.rejectionReason}</p> : null}
              </td>
              <td className="py-2 pe-2 text-end font-medium">{money(payout.amountCents)}</td>
              <td className="py-2">
                {payout.method === "paypal" ? t("PayPal") : t("Bank transfer")} {payout.destination}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {failure ? <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">{failure}</p> : null}
      {cursor !== null ? (
        <button type="button" className="btn-secondary mt-4" onClick={loadMore} disabled={loading}>
          {loading ? t("Loading…") : t("Load more")}
        </button>
      ) : null}
    </div>
  );
}
