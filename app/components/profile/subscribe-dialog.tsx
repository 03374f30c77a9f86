import { Link, useNavigate, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TrialOffer } from "@shared/contracts/offers";
import type { Profile } from "@shared/contracts/profiles";
import { formatCents } from "@shared/money";
import { useAttemptKey } from "~/components/money/attempt-key";
import { PaymentErrorNotice } from "~/components/money/payment-error";
import { Modal } from "~/components/moderation/modal";
import { Notice } from "~/components/notice";
import { buttonOffer, planChoices, type PlanChoice } from "~/components/profile/offer-choices";
import { useOfferText } from "~/components/profile/offer-text";
import { changedPriceOf } from "~/lib/api";
import { useServerText } from "~/lib/server-text";
import { useSession } from "~/lib/session";
import { useUpdateActions } from "~/lib/updates";

/** What the chooser offers: the creator's plans, bundles and promotion, as the profile gives them. */
export type OfferedPlans = Pick<Profile, "username" | "name" | "plans" | "bundles" | "promotion">;

/**
 * The Subscribe button's words: "Subscribe · $9.99/month" (the cheapest plan), "Subscribe for free", or the
 * promotion's price with the regular one struck through, and how long the promotion still runs. The server's texts
 * are kept while the page hydrates (formatting a price or a relative time first loads ICU's data in a browser).
 */
export function useSubscribeLabel(offered: Pick<Profile, "plans" | "promotion">) {
  const { t, i18n } = useTranslation();
  const text = useOfferText();
  const offer = buttonOffer(offered.plans, offered.promotion);
  const deps = `${JSON.stringify(offer)}|${i18n.language}`;
  const [labelId, label] = useServerText(deps, () => {
    if (!offer || offer.kind === "free") return t("Subscribe for free");
    if (offer.kind === "trial") return t("Subscribe · {{price}}", { price: text.freeFor(offer.days) });
    return t("Subscribe · {{price}}", {
      price: text.perPeriod(offer.priceCents, { period: offer.period, bundleMonths: null }),
    });
  });
  const regular = offer?.kind === "promotion" || offer?.kind === "trial" ? offer : null;
  const [regularId, regularText] = useServerText(deps, () => (regular ? text.money(regular.regularCents) : ""));
  const [endingId, ending] = useServerText(deps, () =>
    regular ? text.ending(regular.endsAt, regular.claimsLeft, Date.now()) : "",
  );
  const content = (
    <>
      <span id={labelId}>{label}</span>
      {regular ? (
        // The button is a flex box, which drops a space between its children: a margin stands in for it.
        <s className="ms-1.5 font-normal opacity-75">
          <span className="sr-only">{` ${t("was")} `}</span>
          <span id={regularId}>{regularText}</span>
        </s>
      ) : null}
    </>
  );
  const endingLine = regular ? (
    <span id={endingId} className="block text-xs text-slate-600 dark:text-slate-400" data-promotion-ending>
      {ending}
    </span>
  ) : null;
  return { content, endingLine, endingId: regular ? endingId : undefined };
}

/**
 * The Subscribe button, with the price, and its chooser. Each opening is one attempt with its own idempotency key.
 */
export function SubscribeButton({ offered, walletCents }: { offered: OfferedPlans; walletCents: number | null }) {
  const [open, setOpen] = useState(false);
  const attempt = useAttemptKey();
  const label = useSubscribeLabel(offered);
  return (
    <div className="flex flex-col items-start gap-1">
      <button
        type="button"
        className="btn-secondary"
        data-needs-js
        aria-describedby={label.endingId}
        onClick={() => {
          attempt.renew();
          setOpen(true);
        }}
      >
        {label.content}
      </button>
      {label.endingLine}
      {open ? (
        <SubscribeDialog
          offered={offered}
          walletCents={walletCents}
          attemptKey={attempt.key}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </div>
  );
}

/**
 * A free-trial link's banner: "Free for 7 days" and a button that opens the chooser in trial mode (each plan free
 * for the trial's days, then its price). A visitor signs in first and comes back to the same link. A link that
 * cannot be used says why.
 */
export function TrialBanner({
  offered,
  trial,
  refusal,
  walletCents,
  signedIn,
}: {
  offered: OfferedPlans;
  trial: TrialOffer | null;
  refusal: string | null;
  walletCents: number | null;
  signedIn: boolean;
}) {
  const { t } = useTranslation();
  const text = useOfferText();
  const [open, setOpen] = useState(false);
  if (refusal)
    return (
      <div className="mt-3">
        <Notice tone="info">{t(refusal)}</Notice>
      </div>
    );
  if (!trial) return null;
  const signIn = `/login?redirectTo=${encodeURIComponent(`/${offered.username}?trial=${trial.code}`)}`;
  return (
    <section
      aria-labelledby="trial-offer"
      className="mt-3 flex flex-wrap items-center gap-3 rounded-xl bg-brand-50 p-3 ring-1 ring-brand-100 dark:bg-slate-800 dark:ring-slate-700"
    >
      <p id="trial-offer" className="flex-1 font-semibold">
        {t("{{free}}: start your free trial", { free: text.freeFor(trial.days) })}
      </p>
      {signedIn ? (
        <button type="button" className="btn-primary w-auto" data-needs-js onClick={() => setOpen(true)}>
          {t("Start your free trial")}
        </button>
      ) : (
        <Link to={signIn} className="btn-primary w-auto">
          {t("Sign in to start your free trial")}
        </Link>
      )}
      {open ? (
        <SubscribeDialog
          offered={offered}
          walletCents={walletCents}
          trial={trial}
          attemptKey=""
          onClose={() => setOpen(false)}
        />
      ) : null}
    </section>
  );
}

/**
 * The chooser: every plan and bundle with what it costs (the promotion applied to the plain plans, or in trial mode
 * the trial's free days), the wallet's balance, then a confirmation that says what is paid now and what later.
 * Nothing is charged before it. A free plan subscribes at once. Every request says the price shown: if it changed
 * meanwhile, nothing is charged, the dialog shows the new price and a paid plan asks to confirm it again.
 */
function SubscribeDialog({
  offered,
  walletCents,
  trial = null,
  attemptKey,
  onClose,
}: {
  offered: OfferedPlans;
  walletCents: number | null;
  trial?: TrialOffer | null;
  attemptKey: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const text = useOfferText();
  const { api } = useSession();
  const { refresh: refreshUpdates } = useUpdateActions();
  const { revalidate } = useRevalidator();
  const navigate = useNavigate();
  // A price the server says has changed replaces the one the page was loaded with, by choice.
  const [changed, setChanged] = useState<Record<string, number>>({});
  const choices = planChoices(offered.plans, offered.bundles, offered.promotion, trial).map((choice) => {
    const priceCents = changed[choice.key];
    if (priceCents === undefined) return choice;
    const plain = choice.freeDays === null && choice.discountedCharges === 0;
    return { ...choice, nowCents: priceCents, regularCents: plain ? priceCents : choice.regularCents };
  });
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const chosen = choices.find((choice) => choice.key === chosenKey) ?? null;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function subscribe(choice: PlanChoice) {
    setBusy(true);
    setError(null);
    try {
      await api.post(`/users/${encodeURIComponent(offered.username)}/subscribe`, {
        period: choice.period,
        ...(choice.bundleMonths ? { bundleMonths: choice.bundleMonths } : {}),
        priceCents: choice.nowCents,
        ...(choice.nowCents > 0 ? { idempotencyKey: attemptKey } : {}),
        ...(choice.promotionId ? { promotionId: choice.promotionId } : {}),
        ...(trial ? { trialCode: trial.code } : {}),
      });
      // A trial link's address would now say the trial was had: the profile without it.
      if (trial) navigate(`/${offered.username}`, { replace: true, preventScrollReset: true });
      else revalidate();
      // The wallet changed: the sidebar's balance flag may have too.
      refreshUpdates();
      onClose();
    } catch (failure) {
      setError(failure);
      const priceCents = changedPriceOf(failure);
      if (priceCents !== null) {
        setChanged((shown) => ({ ...shown, [choice.key]: priceCents }));
        // A paid price waits for the person's confirmation; a plan now free is one tap on its line.
        setChosenKey(priceCents > 0 ? choice.key : null);
      }
    } finally {
      setBusy(false);
    }
  }

  function choose(choice: PlanChoice) {
    setError(null);
    if (choice.nowCents === 0 && choice.regularCents === 0) void subscribe(choice);
    else setChosenKey(choice.key);
  }

  return (
    <Modal open title={t("Subscribe to {{name}}", { name: offered.name })} onClose={onClose}>
      <ul aria-label={t("Subscription plans")} className="space-y-1">
        {choices.map((choice) => (
          <li key={choice.key}>
            <button
              type="button"
              disabled={busy}
              aria-pressed={chosenKey === choice.key}
              onClick={() => choose(choice)}
              className={`flex w-full items-start justify-between gap-3 rounded-lg border px-3 py-2 text-start hover:bg-slate-100 dark:hover:bg-slate-800 ${chosenKey === choice.key ? "border-brand-600" : "border-slate-200 dark:border-slate-700"}`}
            >
              <span>
                {text.planName(choice)}
                {choice.savingsCents > 0 ? (
                  <span className="block text-xs text-emerald-700 dark:text-emerald-400">
                    {t("saves {{amount}}", { amount: formatCents(choice.savingsCents, i18n.language) })}
                  </span>
                ) : null}
              </span>
              <ChoicePrice choice={choice} />
            </button>
          </li>
        ))}
      </ul>
      {walletCents !== null ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t("Your wallet: {{amount}}", { amount: formatCents(walletCents, i18n.language) })}
        </p>
      ) : null}
      {chosen ? (
        <div className="space-y-2">
          <p className="text-sm" data-subscribe-terms>
            {termsOf(chosen, text, t)}
          </p>
          <button type="button" className="btn-primary" disabled={busy} onClick={() => void subscribe(chosen)}>
            {chosen.nowCents > 0
              ? busy
                ? t("Paying…")
                : t("Pay and subscribe")
              : busy
                ? t("Subscribing…")
                : t("Start free trial")}
          </button>
        </div>
      ) : null}
      <PaymentErrorNotice error={error} returnTo={`/${offered.username}`} />
    </Modal>
  );
}

/** A line's price: the regular one, the promotion's with the regular one struck through, or the free days first. */
function ChoicePrice({ choice }: { choice: PlanChoice }) {
  const { t } = useTranslation();
  const text = useOfferText();
  if (choice.freeDays !== null)
    return (
      <span className="text-end">
        <span className="block font-semibold">{text.freeFor(choice.freeDays)}</span>
        <span className="block text-xs">
          {t("then {{price}}", { price: text.perPeriod(choice.regularCents, choice) })}
        </span>
      </span>
    );
  if (choice.nowCents !== choice.regularCents)
    return (
      <span className="text-end">
        <span className="font-semibold">{text.money(choice.nowCents)}</span>{" "}
        <s className="text-sm opacity-75">
          <span className="sr-only">{t("was")} </span>
          {text.money(choice.regularCents)}
        </s>
      </span>
    );
  return <span className="font-semibold">{text.money(choice.regularCents)}</span>;
}

/** What confirming a choice pays now and later, in one sentence. */
function termsOf(
  choice: PlanChoice,
  text: ReturnType<typeof useOfferText>,
  t: ReturnType<typeof useTranslation>["t"],
): string {
  const later = text.perPeriod(choice.regularCents, choice);
  if (choice.freeDays !== null)
    return `${t("{{first}}, then {{later}}", { first: text.freeFor(choice.freeDays), later })} ${t(
      "Nothing is paid now; cancel before the trial ends and you pay nothing.",
    )}`;
  const price = text.money(choice.nowCents);
  if (choice.discountedCharges === 1) return t("{{price}} now, then {{later}}", { price, later });
  if (choice.discountedCharges === 2)
    return t("{{price}} now and at the next renewal, then {{later}}", { price, later });
  if (choice.discountedCharges > 2)
    return t("{{price}} now and at the next {{count}} renewals, then {{later}}", {
      price,
      later,
      count: choice.discountedCharges - 1,
    });
  return t("{{price}} is paid from your wallet now, then at each renewal until you cancel.", { price });
}
