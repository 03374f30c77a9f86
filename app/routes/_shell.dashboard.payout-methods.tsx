import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getPayoutMethod, setPayoutMethod } from "@worker/domain/money/payout-methods";
import { PayoutMethodSchema } from "@shared/contracts/money-bodies";
import { parseOrThrow } from "@worker/domain/shared/validation";
import { PayoutMethodForm } from "~/components/dashboard/payout-method-form";
import { handleForm, readForm, requireCreator, type FormResult } from "~/lib/forms.server";
import { offlineAwareAction } from "~/lib/offline-aware-action";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  return { payoutMethod: await getPayoutMethod(context.domain.db, user.id) };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireCreator(context, request);
  return handleForm(context, async () => {
    await setPayoutMethod(context.domain, user, parseOrThrow(PayoutMethodSchema, await readForm(request)));
    return { ok: true } satisfies FormResult;
  });
}

// Offline, the form says so and keeps what was typed.
export const clientAction = offlineAwareAction(() => false);

/** /dashboard/payout-methods: the current method (masked) and the form to set PayPal or bank transfer details. */
export default function PayoutMethodsTab() {
  const { t } = useTranslation();
  return (
    <>
      <h2 className="sr-only">{t("Payout methods")}</h2>
      <PayoutMethodForm current={useLoaderData<typeof loader>().payoutMethod} />
    </>
  );
}
