import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { bundlesStatement, presentBundles, setBundles, type BundleRow } from "@worker/domain/offers/bundles";
import { bundlesFromForm } from "@worker/domain/offers/bundles-form";
import { allRows, readTogether } from "@worker/domain/shared/reads";
import { plansStatement, presentPlans, type PlanRow } from "@worker/domain/subscriptions/plans";
import { plansFromForm } from "@worker/domain/subscriptions/plans-form";
import { setPlans } from "@worker/domain/subscriptions/set-plans";
import { PlansForm } from "~/components/profile/plans-form";
import { handleForm, readForm, requireCreator, type FormResult } from "~/lib/forms.server";
import { offlineAwareAction } from "~/lib/offline-aware-action";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  const { db } = context.domain;
  const [plans, bundles] = await readTogether(db, [
    allRows<PlanRow>(plansStatement(db, user.id)),
    allRows<BundleRow>(bundlesStatement(db, user.id)),
  ]);
  return { plans: presentPlans(plans), bundles: presentBundles(bundles), messagePriceCents: user.message_price_cents };
}

/**
 * The subscription periods and their prices, the price per message, then the bundles (which need the monthly plan
 * just saved). Both parts are read first, so a mistake in either is reported before anything is saved.
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireCreator(context, request);
  return handleForm(context, async () => {
    const fields = await readForm(request);
    const plans = plansFromForm(fields);
    const bundles = bundlesFromForm(fields);
    await setPlans(context.domain.db, user, plans);
    await setBundles(context.domain.db, user, bundles);
    return { ok: true } satisfies FormResult;
  });
}

// Offline, the form says so and keeps what was typed.
export const clientAction = offlineAwareAction(() => false);

/** /dashboard/plans: the creator's subscription plans, bundles and price per message. */
export default function PlansTab() {
  const { t } = useTranslation();
  const { plans, bundles, messagePriceCents } = useLoaderData<typeof loader>();
  return (
    <>
      <h2 className="sr-only">{t("Subscription plans")}</h2>
      <PlansForm plans={plans} bundles={bundles} messagePriceCents={messagePriceCents} />
    </>
  );
}
