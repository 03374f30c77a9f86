import { useFetcher } from "@remix-run/react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { BundleView } from "@shared/contracts/offers";
import type { PlanView } from "@shared/contracts/subscriptions";
import { BUNDLE_MONTHS, MAX_BUNDLE_DISCOUNT, MIN_BUNDLE_DISCOUNT } from "@shared/contracts/offer-constants";
import { bundlePriceCents, bundleSavingsCents } from "@shared/offer-prices";
import { parseDollars } from "@shared/typed-dollars";
import {
  MAX_MESSAGE_PRICE_CENTS,
  MAX_PRICE_CENTS,
  MIN_PAID_PRICE_CENTS,
  PERIODS,
  type Period,
} from "@shared/contracts/subscription-constants";
import { FormNotice } from "~/components/forms";
import { useMoney } from "~/components/dashboard/use-money";
import { IntentForm } from "~/components/profile/intent-form";
import { usePeriodLabel } from "~/components/profile/period-label";

type Result = { ok: true } | { ok: false; message: string; errors: Record<string, string[]> };

/**
 * Dashboard → Plans: for each period, offered or not and its price in dollars (0 = free); the bundles of the monthly
 * plan with their discounts; the price per message.
 */
export function PlansForm({
  plans,
  bundles,
  messagePriceCents,
}: {
  plans: PlanView[];
  bundles: BundleView[];
  messagePriceCents: number;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const fetcher = useFetcher();
  const result = fetcher.state === "idle" ? (fetcher.data as Result | undefined) : undefined;
  const errors = result && !result.ok ? result.errors : {};
  const monthlyPlan = plans.find((plan) => plan.period === "month");
  // The bundles' totals follow the monthly plan as it is typed, before it is saved.
  const [monthlyOffered, setMonthlyOffered] = useState(monthlyPlan !== undefined);
  const [monthlyText, setMonthlyText] = useState(monthlyPlan ? typedPrice(monthlyPlan.priceCents) : "");
  const monthlyCents = monthlyOffered ? (parseDollars(monthlyText) ?? 0) : 0;
  return (
    <IntentForm fetcher={fetcher} intent="plans" className="max-w-lg space-y-4 p-4">
      <p className="text-slate-600 dark:text-slate-400">
        {t(
          "Offer weekly, monthly or yearly subscriptions. A price of 0 makes the plan free; paid plans cost {{min}} to {{max}}.",
          { min: money(MIN_PAID_PRICE_CENTS), max: money(MAX_PRICE_CENTS) },
        )}
      </p>
      <FormNotice result={result} saved={t("Your plans have been saved.")} />
      {PERIODS.map((period) => (
        <PlanRow
          key={period}
          period={period}
          plan={plans.find((plan) => plan.period === period)}
          errors={errors[`price_${period}`]}
          {...(period === "month" ? { onOfferedChange: setMonthlyOffered, onPriceChange: setMonthlyText } : {})}
        />
      ))}
      <Bundles bundles={bundles} monthlyCents={monthlyCents} errors={errors} />
      <MessagePrice priceCents={messagePriceCents} errors={errors.message_price} />
      <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
        {t("Save plans")}
      </button>
    </IntentForm>
  );
}

/** A price as its field shows it. */
const typedPrice = (cents: number) => (cents / 100).toFixed(2);

function PlanRow({
  period,
  plan,
  errors,
  onOfferedChange,
  onPriceChange,
}: {
  period: Period;
  plan: PlanView | undefined;
  errors?: string[];
  onOfferedChange?: (offered: boolean) => void;
  onPriceChange?: (text: string) => void;
}) {
  const { t } = useTranslation();
  const periodLabel = usePeriodLabel();
  const id = useId();
  return (
    <fieldset className="flex flex-wrap items-end gap-4 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <legend className="px-1 font-semibold">{periodLabel(period)}</legend>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          name={`offer_${period}`}
          defaultChecked={plan !== undefined}
          onChange={onOfferedChange && ((event) => onOfferedChange(event.currentTarget.checked))}
          className="h-4 w-4"
        />
        {t("Offer this plan")}
      </label>
      <div className="space-y-1">
        <label htmlFor={`${id}-price`} className="block text-sm font-medium">
          {t("Price in dollars")}
        </label>
        <input
          id={`${id}-price`}
          name={`price_${period}`}
          inputMode="decimal"
          className="input w-32"
          defaultValue={plan ? typedPrice(plan.priceCents) : "0.00"}
          onChange={onPriceChange && ((event) => onPriceChange(event.currentTarget.value))}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? `${id}-error` : undefined}
        />
      </div>
      {errors?.length ? (
        <p id={`${id}-error`} role="alert" className="basis-full text-sm text-red-600 dark:text-red-400">
          {errors.join(" ")}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * The bundles: 3, 6 or 12 months of the monthly plan paid at once, each offered or not with its discount, and the
 * total a fan would pay at the monthly price typed above (`monthlyCents`, 0 while there is no paid monthly plan).
 */
function Bundles({
  bundles,
  monthlyCents,
  errors,
}: {
  bundles: BundleView[];
  monthlyCents: number;
  errors: Record<string, string[]>;
}) {
  const { t } = useTranslation();
  const id = useId();
  const bundleErrors = errors.bundles;
  return (
    <fieldset
      className="space-y-3 rounded-xl border border-slate-200 p-4 dark:border-slate-800"
      aria-describedby={bundleErrors?.length ? `${id}-hint ${id}-error` : `${id}-hint`}
    >
      <legend className="px-1 font-semibold">{t("Bundles")}</legend>
      <p id={`${id}-hint`} className="text-sm text-slate-600 dark:text-slate-400">
        {t("Fans pay several months of your monthly plan at once, at a discount of {{min}}% to {{max}}%.", {
          min: MIN_BUNDLE_DISCOUNT,
          max: MAX_BUNDLE_DISCOUNT,
        })}
      </p>
      {monthlyCents > 0 ? null : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t("Offer the monthly plan at a price to see what each bundle costs.")}
        </p>
      )}
      {bundleErrors?.length ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {bundleErrors.join(" ")}
        </p>
      ) : null}
      {BUNDLE_MONTHS.map((months) => (
        <BundleRow
          key={months}
          months={months}
          bundle={bundles.find((bundle) => bundle.months === months)}
          monthlyCents={monthlyCents}
          errors={errors[`discount_${months}`]}
        />
      ))}
    </fieldset>
  );
}

/** A bundle's discount as typed, when it is a whole percent within the bounds; else null. */
function discountOf(text: string): number | null {
  const match = /^\s*(\d{1,3})\s*%?\s*$/.exec(text);
  const percent = match ? Number(match[1]) : null;
  return percent !== null && percent >= MIN_BUNDLE_DISCOUNT && percent <= MAX_BUNDLE_DISCOUNT ? percent : null;
}

function BundleRow({
  months,
  bundle,
  monthlyCents,
  errors,
}: {
  months: (typeof BUNDLE_MONTHS)[number];
  bundle: BundleView | undefined;
  monthlyCents: number;
  errors?: string[];
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const id = useId();
  const [discountText, setDiscountText] = useState(bundle ? String(bundle.discountPercent) : "");
  const discount = discountOf(discountText);
  const title = { 3: t("3 months"), 6: t("6 months"), 12: t("12 months") }[months];
  const describedBy = [`${id}-total`, errors?.length ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <fieldset className="flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
      <legend className="px-1 font-medium">{title}</legend>
      <label className="flex items-center gap-2">
        <input type="checkbox" name={`bundle_${months}`} defaultChecked={bundle !== undefined} className="h-4 w-4" />
        {t("Offer this bundle")}
      </label>
      <div className="space-y-1">
        <label htmlFor={`${id}-discount`} className="block text-sm font-medium">
          {t("Discount in percent")}
        </label>
        <input
          id={`${id}-discount`}
          name={`discount_${months}`}
          inputMode="numeric"
          className="input w-24"
          value={discountText}
          onChange={(event) => setDiscountText(event.currentTarget.value)}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={describedBy}
        />
      </div>
      <p id={`${id}-total`} className="text-sm text-slate-700 dark:text-slate-300">
        {monthlyCents > 0 && discount !== null
          ? t("Fans pay {{total}}, saving {{saved}}", {
              total: money(bundlePriceCents(monthlyCents, discount, months)),
              saved: money(bundleSavingsCents(monthlyCents, discount, months)),
            })
          : null}
      </p>
      {errors?.length ? (
        <p id={`${id}-error`} role="alert" className="basis-full text-sm text-red-600 dark:text-red-400">
          {errors.join(" ")}
        </p>
      ) : null}
    </fieldset>
  );
}

/** What a fan pays to send one message (0: free, at most $200). */
function MessagePrice({ priceCents, errors }: { priceCents: number; errors?: string[] }) {
  const { t } = useTranslation();
  const money = useMoney();
  const id = useId();
  return (
    <div className="space-y-1 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <label htmlFor={`${id}-price`} className="block font-semibold">
        {t("Price per message")}
      </label>
      <p id={`${id}-hint`} className="text-sm text-slate-600 dark:text-slate-400">
        {t("In dollars: what a fan pays to send you a message. 0 makes messages free; at most {{max}}.", {
          max: money(MAX_MESSAGE_PRICE_CENTS),
        })}
      </p>
      <input
        id={`${id}-price`}
        name="message_price"
        inputMode="decimal"
        className="input w-32"
        defaultValue={(priceCents / 100).toFixed(2)}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-hint ${id}-error` : `${id}-hint`}
      />
      {errors?.length ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
