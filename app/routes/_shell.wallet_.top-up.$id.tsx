import {
  data,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
} from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { PaymentRow } from "@worker/domain/money/payments";
import { presentPayment } from "@worker/domain/money/payments";
import { sandboxAllowed } from "@worker/domain/money/providers/provider";
import { CardSchema, TopUpDecisionSchema } from "@shared/contracts/money-bodies";
import { SANDBOX_CARDS } from "@shared/contracts/money-constants";
import { confirmSandboxTopUp, findOwnTopUp, payWithSandboxCard } from "@worker/domain/money/sandbox-top-up";
import { topUpResultPath } from "@worker/domain/money/start-top-up";
import { AppError } from "@worker/domain/shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { parseIdText, parseOrThrow } from "@worker/domain/shared/validation";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { SandboxCardForm, SandboxConfirmation, SandboxFailure } from "~/components/wallet/sandbox-card";
import { handleForm, readForm, requireViewer, type FormResult } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Top up"))]);

export const handle: ShellHandle = { rightColumn: "none" };

/** A payment step is never kept by a cache (the service worker skips this path too, app/sw/policy.ts). */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

const notFound = () => new Response("Not found", { status: 404 });

/** The caller's own sandbox top-up, or a 404 for anything else: another's payment, a Stripe one, production. */
async function sandboxTopUpOf(
  context: LoaderFunctionArgs["context"],
  userId: number,
  param: string | undefined,
): Promise<PaymentRow> {
  const id = parseIdText(param);
  if (id === null || !sandboxAllowed(context.domain.config)) throw notFound();
  try {
    const payment = await findOwnTopUp(context.domain.db, userId, id);
    if (payment.provider !== "sandbox") throw notFound();
    return payment;
  } catch (error) {
    if (error instanceof AppError) throw notFound();
    throw error;
  }
}

export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  const payment = await sandboxTopUpOf(context, user.id, params.id);
  if (payment.status === "succeeded") throw redirect(topUpResultPath(payment.id));
  return data({ payment: presentPayment(payment), cards: SANDBOX_CARDS }, { headers: { "Cache-Control": "no-store" } });
}

/** Paying with a test card, then confirming or cancelling when the card asks for it. Success goes back to /wallet. */
export async function action({ context, request, params }: ActionFunctionArgs) {
  const { user } = requireViewer(context, request);
  const payment = await sandboxTopUpOf(context, user.id, params.id);
  return handleForm(context, async () => {
    const fields = await readForm(request);
    const sandbox = context.domain;
    let outcome: PaymentRow;
    if (fields.intent === "pay")
      outcome = await payWithSandboxCard(sandbox, user.id, payment.id, parseOrThrow(CardSchema, fields));
    else if (fields.intent === "confirm" || fields.intent === "cancel")
      outcome = await confirmSandboxTopUp(
        sandbox,
        user.id,
        payment.id,
        parseOrThrow(TopUpDecisionSchema, { decision: fields.intent }).decision,
      );
    else throw new AppError("validation", INVALID_VALUE);
    if (outcome.status === "succeeded") return redirect(topUpResultPath(payment.id));
    return { ok: true } satisfies FormResult;
  });
}

/** /wallet/top-up/{id}: the sandbox's card form for one pending top-up of the signed-in member. */
export default function SandboxTopUpPage() {
  const { t } = useTranslation();
  const { payment, cards } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as FormResult | undefined;
  const failed = result && !result.ok ? result : null;
  return (
    <>
      <PageHeader title={t("Top up")}>
        <Link to="/wallet" className="link text-sm">
          {t("Back to the wallet")}
        </Link>
      </PageHeader>
      <div className="mx-auto max-w-md space-y-4 p-4">
        {payment.status === "pending" ? (
          <SandboxCardForm
            payment={payment}
            cards={cards}
            errors={failed?.errors ?? {}}
            message={failed?.message ?? null}
          />
        ) : null}
        {payment.status === "requires_confirmation" ? <SandboxConfirmation payment={payment} /> : null}
        {payment.status === "failed" ? <SandboxFailure payment={payment} /> : null}
      </div>
    </>
  );
}
