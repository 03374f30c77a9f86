import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PayoutMethodView } from "@shared/contracts/money";
import { Field, FormNotice } from "~/components/forms";
import { IntentForm } from "~/components/profile/intent-form";
import { useFormFetcher } from "~/components/use-form-fetcher";

/** Dashboard → Payout methods: the current method (masked) and a form to set PayPal or bank transfer details. */
export function PayoutMethodForm({ current }: { current: PayoutMethodView | null }) {
  const { t } = useTranslation();
  const { fetcher, container, result, errors } = useFormFetcher();
  const [kind, setKind] = useState<"paypal" | "bank">(current?.kind ?? "paypal");
  return (
    <div className="max-w-lg space-y-4 p-4" ref={container}>
      <section
        aria-labelledby="current-method"
        className="rounded-2xl border border-slate-200 p-4 dark:border-slate-800"
      >
        <h3 id="current-method" className="text-sm text-slate-600 dark:text-slate-400">
          {t("Current payout method")}
        </h3>
        <p className="mt-1 font-medium" data-testid="current-payout-method">
          {current
            ? `${current.kind === "paypal" ? t("PayPal") : t("Bank transfer")} ${current.destination}`
            : t("None yet")}
        </p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {t("A withdrawal already requested is paid to the method it was requested with.")}
        </p>
      </section>
      <FormNotice result={result} saved={t("Your payout method has been saved.")} />
      <IntentForm fetcher={fetcher} intent="payout-method" className="space-y-4">
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">{t("Payout method")}</legend>
          <div className="flex gap-4">
            {(["paypal", "bank"] as const).map((option) => (
              <label key={option} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="kind"
                  value={option}
                  checked={kind === option}
                  onChange={() => setKind(option)}
                  className="h-4 w-4"
                />
                {option === "paypal" ? t("PayPal") : t("Bank transfer")}
              </label>
            ))}
          </div>
        </fieldset>
        {kind === "paypal" ? (
          <>
            <Field
              label={t("PayPal email")}
              name="paypalEmail"
              type="email"
              autoComplete="email"
              required
              errors={errors.paypalEmail}
            />
            <Field
              label={t("Confirm PayPal email")}
              name="paypalEmailConfirmation"
              type="email"
              autoComplete="off"
              required
              errors={errors.paypalEmailConfirmation}
            />
          </>
        ) : (
          <>
            <Field
              label={t("Account holder")}
              name="accountHolder"
              autoComplete="name"
              required
              maxLength={100}
              errors={errors.accountHolder}
            />
            <Field label={t("Bank name")} name="bankName" required maxLength={100} errors={errors.bankName} />
            <Field
              label={t("IBAN or account number")}
              name="accountNumber"
              autoComplete="off"
              required
              errors={errors.accountNumber}
            />
            <Field
              label={t("SWIFT/BIC or routing code")}
              name="routingCode"
              autoComplete="off"
              required
              errors={errors.routingCode}
            />
            <Field
              label={t("Country")}
              name="country"
              autoComplete="country-name"
              required
              maxLength={56}
              errors={errors.country}
            />
          </>
        )}
        <Field
          label={t("Password")}
          name="password"
          type="password"
          autoComplete="current-password"
          errors={errors.password}
        />
        <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
          {t("Save payout method")}
        </button>
      </IntentForm>
    </div>
  );
}
