import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MIN_WITHDRAWAL_CENTS } from "@worker/domain/money/rules";
import { readWithdrawal } from "@worker/domain/money/screens";
import { withdrawalCentsFromForm } from "@worker/domain/money/withdrawal-amount";
import { requestWithdrawal } from "@worker/domain/money/withdrawals";
import { WithdrawalSchema } from "@shared/contracts/money-bodies";
import { parseOrThrow } from "@worker/domain/shared/validation";
import { formatCents } from "@shared/money";
import { WithdrawForm } from "~/components/dashboard/withdraw-form";
import { handleForm, readForm, requireCreator, type FormResult } from "~/lib/forms.server";
import { offlineAwareAction } from "~/lib/offline-aware-action";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  const { availableCents, openPayout, payoutMethod } = await readWithdrawal(context.domain.db, user.id);
  return {
    availableCents,
    minimumCents: MIN_WITHDRAWAL_CENTS,
    openPayout,
    hasPayoutMethod: payoutMethod !== null,
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireCreator(context, request);
  const { domain } = context;
  return handleForm(context, async () => {
    const fields = await readForm(request);
    const amountCents = withdrawalCentsFromForm(fields.amount ?? "");
    const input = parseOrThrow(WithdrawalSchema, {
      amountCents,
      password: fields.password,
      idempotencyKey: fields.idempotencyKey,
    });
    const { payout } = await requestWithdrawal(domain, user, input);
    const amount = formatCents(payout.amountCents, domain.language);
    return {
      ok: true,
      message: domain.t("Your withdrawal request of {{amount}} has been sent.", { amount }),
    } satisfies FormResult;
  });
}

// Offline, the form says that nothing was requested or charged, and keeps what was typed.
export const clientAction = offlineAwareAction(() => true);

/** /dashboard/withdraw: the available balance, the minimum, the open request if any, and the form. */
export default function WithdrawTab() {
  const { t } = useTranslation();
  return (
    <>
      <h2 className="sr-only">{t("Request a withdrawal")}</h2>
      <WithdrawForm data={useLoaderData<typeof loader>()} />
    </>
  );
}
