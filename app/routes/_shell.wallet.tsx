import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { topUpsAvailable } from "@worker/domain/money/providers/provider";
import { TOP_UP_PRESETS_CENTS } from "@worker/domain/money/rules";
import { IdempotencyKeySchema, TopUpSchema } from "@shared/contracts/money-bodies";
import { readWallet } from "@worker/domain/money/screens";
import { startTopUp } from "@worker/domain/money/start-top-up";
import { fieldError } from "@worker/domain/shared/errors";
import { message } from "@shared/messages";
import { parseOrThrow } from "@worker/domain/shared/validation";
import { singleLineText } from "@shared/contracts/text";
import { Notice } from "~/components/notice";
import { OfflineNotice } from "~/components/offline-notice";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { parseDollars } from "@shared/typed-dollars";
import { useMoney } from "~/components/dashboard/use-money";
import { PaymentHistory } from "~/components/wallet/payment-history";
import { paymentPageShape } from "~/components/wallet/wallet-shapes";
import { offlineLoader, useOfflineCopy } from "~/lib/offline-copies";
import { offlineAwareAction } from "~/lib/offline-aware-action";
import { array, boolean, number, object } from "@shared/shape";
import { TopUpForm } from "~/components/wallet/top-up-form";
import { TopUpOutcome } from "~/components/wallet/top-up-outcome";
import { handleForm, readForm, requireViewer, type FormResult } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Wallet"))]);

export const handle: ShellHandle = { rightColumn: "empty" };

const ID_PATTERN = /^[1-9]\d{0,15}$/;

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  // The top-up the payer came back from (?topUp={id}), if it is theirs.
  const returned = new URL(request.url).searchParams.get("topUp");
  const { balanceCents, payments, nextCursor, topUp } = await readWallet(context.domain.db, user.id, {
    topUpId: returned && ID_PATTERN.test(returned) ? Number(returned) : null,
  });
  return {
    balanceCents,
    page: { payments, nextCursor },
    topUp,
    verified: user.email_verified_at !== null,
    available: topUpsAvailable(context.domain.config),
    presetsCents: TOP_UP_PRESETS_CENTS,
    // One key per rendering of the form: submitting it twice is one top-up.
    idempotencyKey: crypto.randomUUID(),
    savedAt: Date.now(),
  };
}

/**
 * The copy kept for offline reading (app/lib/offline-copies.ts): balance and payments. A top-up's outcome is
 * not kept, and a copy gets a fresh form key (a top-up needs the network anyway).
 */
const walletShape = object({
  balanceCents: number,
  page: paymentPageShape,
  verified: boolean,
  available: boolean,
  presetsCents: array(number),
  savedAt: number,
});
export const clientLoader = offlineLoader(
  () => "wallet",
  (value, path) => ({ ...walletShape(value, path), topUp: null, idempotencyKey: crypto.randomUUID() }),
);

const ENTER_AMOUNT = message("Enter an amount in dollars, like 25 or 12.50.");

/** What the form sent: a preset button's cents, or the typed dollars ("12.50", "12,50") as cents. */
const TopUpFormSchema = z.union([
  z.object({
    presetCents: z
      .string()
      .regex(/^\d{1,9}$/)
      .transform(Number),
    idempotencyKey: IdempotencyKeySchema,
  }),
  z.object({ amount: singleLineText(), idempotencyKey: IdempotencyKeySchema }),
]);

function amountCentsOf(fields: z.output<typeof TopUpFormSchema>): number {
  if ("presetCents" in fields) return fields.presetCents;
  const cents = parseDollars(fields.amount);
  if (cents === null) throw fieldError("amount", ENTER_AMOUNT);
  return cents;
}

/** Starts a top-up and sends the browser to pay it (the sandbox card form or Stripe Checkout). */
export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireViewer(context, request);
  return handleForm(context, async () => {
    const fields = parseOrThrow(TopUpFormSchema, await readForm(request));
    const started = await startTopUp(
      context.domain,
      user,
      parseOrThrow(TopUpSchema, { amountCents: amountCentsOf(fields), idempotencyKey: fields.idempotencyKey }),
    );
    return redirect(started.redirectUrl);
  });
}

// A top-up offline: the form says nothing was charged, and the wallet stays on screen.
export const clientAction = offlineAwareAction(() => true);

/** /wallet: the balance, topping it up, and every payment made or tried, newest first. */
export default function WalletPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const data = useLoaderData<typeof clientLoader>();
  const result = useActionData<typeof action>() as FormResult | undefined;
  const failed = result && !result.ok ? result : null;
  const { balanceCents, page, verified, available, presetsCents, savedAt } = data;
  useOfflineCopy(
    "wallet",
    data,
    useMemo(
      () => ({ balanceCents, page, verified, available, presetsCents, savedAt }),
      [balanceCents, page, verified, available, presetsCents, savedAt],
    ),
  );
  return (
    <>
      <PageHeader title={t("Wallet")} />
      <OfflineNotice offline={data.offline} />
      <div className="space-y-4 p-4">
        {data.topUp ? <TopUpOutcome payment={data.topUp} /> : null}
        <section
          aria-labelledby="balance-heading"
          className="rounded-2xl bg-gradient-to-br from-brand-600 to-brand-700 p-6 text-white"
        >
          <h2 id="balance-heading" className="text-sm font-medium opacity-90">
            {t("Balance")}
          </h2>
          <p className="mt-1 text-4xl font-bold" data-balance>
            {money(data.balanceCents)}
          </p>
        </section>
        {data.balanceCents < 0 ? (
          <Notice tone="info">
            {t(
              "Your balance is negative because a card payment of yours was refunded or disputed with your bank after you had spent it. You cannot pay for anything until you top up at least {{amount}}; the top-up settles it first.",
              { amount: money(-data.balanceCents) },
            )}
          </Notice>
        ) : null}
        <section aria-labelledby="top-up-heading" className="space-y-3">
          <h2 id="top-up-heading" className="text-lg font-semibold">
            {t("Top up your wallet")}
          </h2>
          <TopUpForm
            presetsCents={data.presetsCents}
            idempotencyKey={data.idempotencyKey}
            verified={data.verified}
            available={data.available}
            errors={failed?.errors ?? {}}
            message={failed?.message ?? null}
          />
        </section>
      </div>
      <PaymentHistory firstPage={data.page} />
    </>
  );
}
