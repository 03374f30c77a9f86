import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PlanView } from "@shared/contracts/subscriptions";
import { useAttemptKey } from "~/components/money/attempt-key";
import { PaymentErrorNotice } from "~/components/money/payment-error";
import { Modal } from "~/components/moderation/modal";
import { formatCents } from "@shared/money";
import { changedPriceOf } from "~/lib/api";
import { useSession } from "~/lib/session";
import { useUpdateActions } from "~/lib/updates";
import { usePeriodLabel } from "~/components/profile/period-label";

/**
 * The Subscribe button and its dialog: each plan with its price. A free plan subscribes at once; a paid plan
 * asks to confirm the charge, which the wallet pays now (one idempotency key per opening of the dialog) and at
 * each renewal. Every request says the price shown: if the creator changed it meanwhile, nothing is charged, the
 * dialog shows the new price (the server's message and the plan's line) and a paid plan asks to confirm it again.
 * The page's loader data refreshes after, so the locks and the button change.
 */
export function SubscribeButton({
  username,
  creatorName,
  plans,
}: {
  username: string;
  creatorName: string;
  plans: PlanView[];
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const attempt = useAttemptKey();
  return (
    <>
      <button
        type="button"
        className="btn-secondary"
        data-needs-js
        onClick={() => {
          attempt.renew();
          setOpen(true);
        }}
      >
        {t("Subscribe")}
      </button>
      {open ? (
        <SubscribeDialog
          username={username}
          creatorName={creatorName}
          plans={plans}
          attemptKey={attempt.key}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function SubscribeDialog({
  username,
  creatorName,
  plans: plansAtOpening,
  attemptKey,
  onClose,
}: {
  username: string;
  creatorName: string;
  plans: PlanView[];
  attemptKey: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  // The plans as shown: a price the server says has changed replaces the one the page was loaded with.
  const [plans, setPlans] = useState(plansAtOpening);
  const { api } = useSession();
  const { refresh: refreshUpdates } = useUpdateActions();
  const { revalidate } = useRevalidator();
  const periodLabel = usePeriodLabel();
  const [chosen, setChosen] = useState<PlanView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const price = (plan: PlanView) => (plan.priceCents === 0 ? t("Free") : formatCents(plan.priceCents, i18n.language));

  async function subscribe(plan: PlanView) {
    setBusy(true);
    setError(null);
    try {
      await api.post(`/users/${encodeURIComponent(username)}/subscribe`, {
        period: plan.period,
        priceCents: plan.priceCents,
        ...(plan.priceCents > 0 ? { idempotencyKey: attemptKey } : {}),
      });
      revalidate();
      // The wallet changed: the sidebar's balance flag may have too.
      refreshUpdates();
      onClose();
    } catch (failure) {
      setError(failure);
      const priceCents = changedPriceOf(failure);
      if (priceCents !== null) {
        const changed = { ...plan, priceCents };
        setPlans((shown) => shown.map((line) => (line.period === plan.period ? changed : line)));
        // A paid price waits for the person's confirmation; a plan now free is one tap on its line.
        setChosen(priceCents > 0 ? changed : null);
      }
    } finally {
      setBusy(false);
    }
  }

  function choose(plan: PlanView) {
    setError(null);
    if (plan.priceCents === 0) void subscribe(plan);
    else setChosen(plan);
  }

  return (
    <Modal open title={t("Subscribe to {{name}}", { name: creatorName })} onClose={onClose}>
      <ul aria-label={t("Subscription plans")} className="space-y-1">
        {plans.map((plan) => (
          <li key={plan.period}>
            <button
              type="button"
              disabled={busy}
              aria-pressed={chosen?.period === plan.period}
              onClick={() => choose(plan)}
              className={`flex w-full justify-between rounded-lg border px-3 py-2 text-start hover:bg-slate-100 dark:hover:bg-slate-800 ${chosen?.period === plan.period ? "border-brand-600" : "border-slate-200 dark:border-slate-700"}`}
            >
              <span>{periodLabel(plan.period)}</span>
              <span className="font-semibold">{price(plan)}</span>
            </button>
          </li>
        ))}
      </ul>
      {chosen ? (
        <div className="space-y-2">
          <p className="text-sm">
            {t("{{price}} is paid from your wallet now, then at each renewal until you cancel.", {
              price: price(chosen),
            })}
          </p>
          <button type="button" className="btn-primary" disabled={busy} onClick={() => void subscribe(chosen)}>
            {busy ? t("Paying…") : t("Pay and subscribe")}
          </button>
        </div>
      ) : null}
      <PaymentErrorNotice error={error} returnTo={`/${username}`} />
    </Modal>
  );
}
