import { useRevalidator } from "@remix-run/react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { GIFT_MONTHS, type GiftMonths } from "@shared/contracts/offer-constants";
import type { GiftAnswer, RetentionOffer } from "@shared/contracts/offers";
import type { SubscriptionView } from "@shared/contracts/subscriptions";
import { formatCents } from "@shared/money";
import { giftPriceCents } from "@shared/offer-prices";
import { LocalTime } from "~/components/local-time";
import { PaymentErrorNotice } from "~/components/money/payment-error";
import { Modal } from "~/components/moderation/modal";
import { Notice } from "~/components/notice";
import { choiceKey, planChoices } from "~/components/profile/offer-choices";
import { giftAnswerShape, retentionOfferAnswerShape } from "~/components/profile/offer-shapes";
import { useOfferText } from "~/components/profile/offer-text";
import type { OfferedPlans } from "~/components/profile/subscribe-dialog";
import { changedPriceOf } from "~/lib/api";
import { useSession } from "~/lib/session";
import { useUpdateActions } from "~/lib/updates";

/**
 * The dialogs of a subscriber on a creator's profile (loaded when first opened): changing plan, cancelling (with
 * the creator's retention offer, when there is one) and giving a subscription.
 */

/**
 * Change plan: every plan and bundle at its regular price; the new one takes over at the next renewal and nothing
 * is charged now. Choosing the current plan again undoes a change not yet made.
 */
export function ChangePlanDialog({
  subscription,
  offered,
  onClose,
}: {
  subscription: SubscriptionView;
  offered: OfferedPlans;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const text = useOfferText();
  const { api } = useSession();
  const { revalidate } = useRevalidator();
  const [changed, setChanged] = useState<Record<string, number>>({});
  const choices = planChoices(offered.plans, offered.bundles, null).map((choice) => {
    const priceCents = changed[choice.key];
    return priceCents === undefined ? choice : { ...choice, nowCents: priceCents, regularCents: priceCents };
  });
  const current = choiceKey(subscription.period, subscription.bundleMonths);
  const pending = subscription.nextPlan
    ? choiceKey(subscription.nextPlan.period, subscription.nextPlan.bundleMonths)
    : null;
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const chosen = choices.find((choice) => choice.key === chosenKey) ?? null;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function confirm() {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      await api.post(`/subscriptions/${subscription.id}/plan`, {
        period: chosen.period,
        ...(chosen.bundleMonths ? { bundleMonths: chosen.bundleMonths } : {}),
        priceCents: chosen.regularCents,
      });
      revalidate();
      onClose();
    } catch (failure) {
      setError(failure);
      const priceCents = changedPriceOf(failure);
      if (priceCents !== null) setChanged((shown) => ({ ...shown, [chosen.key]: priceCents }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open title={t("Change plan")} onClose={onClose}>
      <ul aria-label={t("Subscription plans")} className="space-y-1">
        {choices.map((choice) => {
          // The current plan is a choice only to undo a pending change.
          const unavailable = choice.key === current && pending === null;
          return (
            <li key={choice.key}>
              <button
                type="button"
                disabled={busy || unavailable || choice.key === pending}
                aria-pressed={chosenKey === choice.key}
                onClick={() => {
                  setError(null);
                  setChosenKey(choice.key);
                }}
                className={`flex w-full items-start justify-between gap-3 rounded-lg border px-3 py-2 text-start enabled:hover:bg-slate-100 disabled:opacity-60 dark:enabled:hover:bg-slate-800 ${chosenKey === choice.key ? "border-brand-600" : "border-slate-200 dark:border-slate-700"}`}
              >
                <span>
                  {text.planName(choice)}
                  {choice.key === current ? (
                    <span className="block text-xs">{t("Your current plan")}</span>
                  ) : choice.key === pending ? (
                    <span className="block text-xs">{t("From your next renewal")}</span>
                  ) : null}
                </span>
                <span className="font-semibold">{text.money(choice.regularCents)}</span>
              </button>
            </li>
          );
        })}
      </ul>
      {chosen ? (
        <div className="space-y-2">
          <p className="text-sm">
            {chosen.key === current
              ? t("You keep your current plan.")
              : t("{{plan}} at {{price}}.", {
                  plan: text.planName(chosen),
                  price: text.perPeriod(chosen.regularCents, chosen),
                })}{" "}
            {t("Takes effect on")} <LocalTime iso={subscription.currentPeriodEnd} dateOnly />.{" "}
            {t("Nothing is charged now.")}
          </p>
          <button type="button" className="btn-primary" disabled={busy} onClick={() => void confirm()}>
            {busy ? t("Saving…") : chosen.key === current ? t("Keep my current plan") : t("Change plan")}
          </button>
        </div>
      ) : null}
      <PaymentErrorNotice error={error} />
    </Modal>
  );
}

/**
 * Cancelling: first the creator's retention offer, if this subscription may take it ("Stay for 50% off your next
 * 2 renewals"), else a plain confirmation. Cancelling keeps the access until the period's end, as always.
 */
export function CancelDialog({ subscription, onClose }: { subscription: SubscriptionView; onClose: () => void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const { revalidate } = useRevalidator();
  // undefined while asking the server; a failed question is no reason not to let the fan cancel.
  const [offer, setOffer] = useState<RetentionOffer | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let current = true;
    api
      .get(`/subscriptions/${subscription.id}/retention-offer`, retentionOfferAnswerShape, { quiet: true })
      .then((answer) => current && setOffer(answer.offer))
      .catch(() => current && setOffer(null));
    return () => {
      current = false;
    };
  }, [api, subscription.id]);

  async function act(path: string, body?: unknown) {
    setBusy(true);
    setError(null);
    try {
      await api.post(path, body);
      revalidate();
      onClose();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  const cancel = () => void act(`/subscriptions/${subscription.id}/cancel`);

  return (
    <Modal open title={t("Cancel subscription")} onClose={onClose}>
      {offer === undefined ? (
        <p role="status" className="text-sm">
          {t("Loading…")}
        </p>
      ) : offer ? (
        <div className="space-y-3">
          <p className="font-semibold" data-retention-offer>
            {offer.periods === 1
              ? t("Stay for {{percent}}% off your next renewal", { percent: offer.percentOff })
              : t("Stay for {{percent}}% off your next {{count}} renewals", {
                  percent: offer.percentOff,
                  count: offer.periods,
                })}
          </p>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn-primary w-auto"
              disabled={busy}
              onClick={() => void act(`/subscriptions/${subscription.id}/retain`, { offerId: offer.id })}
            >
              {t("Stay with the offer")}
            </button>
            <button type="button" className="btn-secondary" disabled={busy} onClick={cancel}>
              {t("Cancel anyway")}
            </button>
          </div>
        </div>
      ) : (
        <div className="space-y-3">
          <p className="text-sm">
            {t("It will not renew. You keep your access until")}{" "}
            <LocalTime iso={subscription.currentPeriodEnd} dateOnly />.
          </p>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-primary w-auto" disabled={busy} onClick={cancel}>
              {t("Yes, cancel")}
            </button>
            <button type="button" className="btn-secondary" disabled={busy} onClick={onClose}>
              {t("Keep my subscription")}
            </button>
          </div>
        </div>
      )}
      {error ? <PaymentErrorNotice error={error} /> : null}
    </Modal>
  );
}

/**
 * Give a subscription: another member's username, 1, 3, 6 or 12 months of the monthly plan (a bundle's price when
 * the creator offers one of that length), paid from the wallet now; it never renews on the giver's money.
 */
export function GiftDialog({
  offered,
  monthlyCents,
  walletCents,
  attemptKey,
  onClose,
}: {
  offered: OfferedPlans;
  monthlyCents: number;
  walletCents: number | null;
  attemptKey: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const { refresh: refreshUpdates } = useUpdateActions();
  const recipientId = useId();
  const [recipient, setRecipient] = useState("");
  const [months, setMonths] = useState<GiftMonths>(1);
  const [changed, setChanged] = useState<Partial<Record<GiftMonths, number>>>({});
  const priceOf = (length: GiftMonths) => changed[length] ?? giftPriceCents(monthlyCents, offered.bundles, length);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [given, setGiven] = useState<GiftAnswer | null>(null);
  const money = (cents: number) => formatCents(cents, i18n.language);

  async function give(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const priceCents = priceOf(months);
    try {
      const answer = await api.post(
        `/users/${encodeURIComponent(offered.username)}/gift`,
        { to: recipient.trim().replace(/^@/, ""), months, priceCents, idempotencyKey: attemptKey },
        giftAnswerShape,
      );
      setGiven(answer);
      refreshUpdates();
    } catch (failure) {
      setError(failure);
      const current = changedPriceOf(failure);
      if (current !== null) setChanged((shown) => ({ ...shown, [months]: current }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open title={t("Gift a subscription to {{name}}", { name: offered.name })} onClose={onClose}>
      {given ? (
        <div className="space-y-3">
          <Notice tone="success">
            {t("@{{username}} now has a subscription until", { username: given.recipient })}{" "}
            <LocalTime iso={given.endsAt} dateOnly />.
          </Notice>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("Close")}
          </button>
        </div>
      ) : (
        <form className="space-y-3" onSubmit={(event) => void give(event)}>
          <div>
            <label htmlFor={recipientId} className="block text-sm font-medium">
              {t("Recipient's username")}
            </label>
            <input
              id={recipientId}
              className="input mt-1"
              required
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={64}
              value={recipient}
              onChange={(event) => setRecipient(event.target.value)}
            />
          </div>
          <fieldset>
            <legend className="text-sm font-medium">{t("How long")}</legend>
            <div className="mt-1 space-y-1">
              {GIFT_MONTHS.map((length) => (
                <label
                  key={length}
                  className="flex cursor-pointer items-center justify-between gap-3 rounded-lg border border-slate-200 px-3 py-2 has-[:checked]:border-brand-600 dark:border-slate-700"
                >
                  <span className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="gift-months"
                      value={length}
                      checked={months === length}
                      onChange={() => setMonths(length)}
                    />
                    {length === 1 ? t("1 month") : t("{{count}} months", { count: length })}
                  </span>
                  <span className="font-semibold">{money(priceOf(length))}</span>
                </label>
              ))}
            </div>
          </fieldset>
          {walletCents !== null ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {t("Your wallet: {{amount}}", { amount: money(walletCents) })}
            </p>
          ) : null}
          <p className="text-sm">
            {t("{{price}} is paid from your wallet now. A gift never renews.", { price: money(priceOf(months)) })}
          </p>
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? t("Paying…") : t("Pay {{price}} and give", { price: money(priceOf(months)) })}
          </button>
        </form>
      )}
      <PaymentErrorNotice error={error} returnTo={`/${offered.username}`} />
    </Modal>
  );
}
