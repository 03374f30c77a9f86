import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { earningsOverview } from "@worker/domain/money/earnings-overview";
import { number, object } from "@shared/shape";
import { earningsOverviewShape } from "~/components/dashboard/dashboard-shapes";
import { EarningsOverviewPanel } from "~/components/dashboard/earnings-overview";
import { useFreshEarnings } from "~/components/dashboard/use-fresh-earnings";
import { OfflineNotice } from "~/components/offline-notice";
import { requireCreator } from "~/lib/forms.server";
import { offlineLoader, useOfflineCopy } from "~/lib/offline-copies";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  const { db, config } = context.domain;
  return { overview: await earningsOverview(db, user.id, config.PLATFORM_FEE_PERCENT), savedAt: Date.now() };
}

/** Kept for offline reading (app/lib/offline-copies.ts): a creator checks the figures on the go. */
const COPY_KEY = "dashboard:earnings";
export const clientLoader = offlineLoader(() => COPY_KEY, object({ overview: earningsOverviewShape, savedAt: number }));

/** /dashboard: the earnings overview, the dashboard's first tab. */
export default function EarningsTab() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof clientLoader>();
  const { overview, savedAt } = data;
  useFreshEarnings();
  useOfflineCopy(
    COPY_KEY,
    data,
    useMemo(() => ({ overview, savedAt }), [overview, savedAt]),
  );
  return (
    <>
      <OfflineNotice offline={data.offline} />
      <h2 className="sr-only">{t("Earnings")}</h2>
      <EarningsOverviewPanel overview={overview} />
    </>
  );
}
