import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { listPlans } from "@worker/domain/subscriptions/plans";
import { plansFromForm } from "@worker/domain/subscriptions/plans-form";
import { setPlans } from "@worker/domain/subscriptions/set-plans";
import { PlansForm } from "~/components/profile/plans-form";
import { handleForm, readForm, requireCreator, type FormResult } from "~/lib/forms.server";
import { offlineAwareAction } from "~/lib/offline-aware-action";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  return { plans: await listPlans(context.domain.db, user.id), messagePriceCents: user.message_price_cents };
}

/** The subscription periods and their prices, and the price per message. */
export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireCreator(context, request);
  return handleForm(context, async () => {
    await setPlans(context.domain.db, user, plansFromForm(await readForm(request)));
    return { ok: true } satisfies FormResult;
  });
}

// Offline, the form says so and keeps what was typed.
export const clientAction = offlineAwareAction(() => false);

/** /dashboard/plans: the creator's subscription plans and price per message. */
export default function PlansTab() {
  const { t } = useTranslation();
  const { plans, messagePriceCents } = useLoaderData<typeof loader>();
  return (
    <>
      <h2 className="sr-only">{t("Subscription plans")}</h2>
      <PlansForm plans={plans} messagePriceCents={messagePriceCents} />
    </>
  );
}
