import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { PayoutView } from "@shared/contracts/money";
import { Field, FormNotice, Notice } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { IntentForm } from "~/components/profile/intent-form";
import { useFormFetcher } from "~/components/use-form-fetcher";
import { PayoutStatus } from "~/components/dashboard/payout-status";
import { useMoney } from "~/components/dashboard/use-money";

export interface WithdrawPageData {
  availableCents: number;
  minimumCents: number;
  openPayout: PayoutView | null;
  hasPayoutMethod: boolean;
  /** A fresh key per render of the form: a resubmission of the same attempt is recognised, never paid twice. */
  idempotencyKey: string;
}

/** Dashboard → Request a withdrawal: the available balance, the minimum, the open request if any, and the form. */
export function WithdrawForm({ data }: { data: WithdrawPageData }) {
  const { t } = useTranslation();
  const money = useMoney();
  // The form empties once a request is made: its amount is not left for a second one.
  const { fetcher, container, result, errors } = useFormFetcher({ clearOnSuccess: true });
  return (
    <div className="max-w-lg space-y-4 p-4" ref={container}>
      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-2xl border border-slate-200 p-4 dark:border-slate-800">
          <dt className="text-sm text-slate-600 dark:text-slate-400">{t("Available")}</dt>
          <dd className="mt-1 text-2xl font-bold">{money(data.availableCents)}</dd>
        </div>
        <div className="rounded-2xl border border-slate-200 p-4 dark:border-slate-800">
          <dt className="text-sm text-slate-600 dark:text-slate-400">{t("Minimum")}</dt>
          <dd className="mt-1 text-2xl font-bold">{money(data.minimumCents)}</dd>
        </div>
      </dl>
      {data.openPayout ? (
        <section
          aria-labelledby="open-payout"
          className="rounded-2xl border border-amber-300 p-4 dark:border-amber-800"
        >
          <h3 id="open-payout" className="font-semibold">
            {t("Your pending request")}
          </h3>
          <p className="mt-1 flex flex-wrap items-center gap-2">
            <span className="font-medium">{money(data.openPayout.amountCents)}</span>
            <PayoutStatus status={data.openPayout.status} />
            <span className="text-sm text-slate-600 dark:text-slate-400">
              <LocalTime iso={data.openPayout.createdAt} /> · {data.openPayout.destination}
            </span>
          </p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {t("One request can be open at a time. You can request another once it is processed.")}
          </p>
        </section>
      ) : null}
      {data.hasPayoutMethod ? null : (
        <Notice tone="info">
          {t("Add a payout method first.")}{" "}
          <Link to="/dashboard/payout-methods" className="link">
            {t("Add a payout method")}
          </Link>
        </Notice>
      )}
      <FormNotice result={result} />
      <IntentForm
        fetcher={fetcher}
        intent="withdraw"
        fields={{ idempotencyKey: data.idempotencyKey }}
        className="space-y-4"
      >
        <Field
          label={t("Amount in dollars")}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          required
          errors={errors.amountCents ?? errors.amount}
          hint={t("At least {{min}}.", { min: money(data.minimumCents) })}
        />
        <Field
          label={t("Password")}
          name="password"
          type="password"
          autoComplete="current-password"
          errors={errors.password}
        />
        <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle" ? t("Sending…") : t("Request withdrawal")}
        </button>
      </IntentForm>
    </div>
  );
}
