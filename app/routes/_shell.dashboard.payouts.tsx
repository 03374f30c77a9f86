import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { listPayouts } from "@worker/domain/money/list-payouts";
import { number, object } from "@shared/shape";
import { payoutPageShape } from "~/components/dashboard/dashboard-shapes";
import { PayoutHistory } from "~/components/dashboard/payout-history";
import { useFreshEarnings } from "~/components/dashboard/use-fresh-earnings";
import { OfflineNotice } from "~/components/offline-notice";
import { requireCreator } from "~/lib/forms.server";
import { offlineLoader, useOfflineCopy } from "~/lib/offline-copies";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  return { payouts: await listPayouts(context.domain.db, user.id, null), savedAt: Date.now() };
}

/** Kept for offline reading (app/lib/offline-copies.ts), like the earnings. */
const COPY_KEY = "dashboard:payouts";
export const clientLoader = offlineLoader(() => COPY_KEY, object({ payouts: payoutPageShape, savedAt: number }));

/** /dashboard/payouts: the creator's withdrawals and their states. */
export default function PayoutsTab() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof clientLoader>();
  const { payouts, savedAt } = data;
  useFreshEarnings();
  useOfflineCopy(
    COPY_KEY,
    data,
    useMemo(() => ({ payouts, savedAt }), [payouts, savedAt]),
  );
  return (
    <>
      <OfflineNotice offline={data.offline} />
      <h2 className="sr-only">{t("Payout history")}</h2>
      <PayoutHistory first={payouts} />
    </>
  );
}
