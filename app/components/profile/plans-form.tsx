import { useFetcher } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { PlanView } from "@shared/contracts/subscriptions";
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

/** Dashboard → Plans: for each period, offered or not and its price in dollars (0 = free); the price per message. */
export function PlansForm({ plans, messagePriceCents }: { plans: PlanView[]; messagePriceCents: number }) {
  const { t } = useTranslation();
  const money = useMoney();
  const fetcher = useFetcher();
  const result = fetcher.state === "idle" ? (fetcher.data as Result | undefined) : undefined;
  const errors = result && !result.ok ? result.errors : {};
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
        />
      ))}
      <MessagePrice priceCents={messagePriceCents} errors={errors.message_price} />
      <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
        {t("Save plans")}
      </button>
    </IntentForm>
  );
}

function PlanRow({ period, plan, errors }: { period: Period; plan: PlanView | undefined; errors?: string[] }) {
  const { t } = useTranslation();
  const periodLabel = usePeriodLabel();
  const id = useId();
  return (
    <fieldset className="flex flex-wrap items-end gap-4 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <legend className="px-1 font-semibold">{periodLabel(period)}</legend>
      <label className="flex items-center gap-2">
        <input type="checkbox" name={`offer_${period}`} defaultChecked={plan !== undefined} className="h-4 w-4" />
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
          defaultValue={plan ? (plan.priceCents / 100).toFixed(2) : "0.00"}
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
