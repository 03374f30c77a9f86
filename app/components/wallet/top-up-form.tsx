import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AppForm, Field, Notice, SubmitButton } from "~/components/forms";
import { useMoney } from "~/components/dashboard/use-money";

interface TopUpFormProps {
  presetsCents: readonly number[];
  idempotencyKey: string;
  verified: boolean;
  available: boolean;
  errors: Record<string, string[]>;
  message: string | null;
}

/**
 * Top up the wallet: a typed amount ("12.50" or "12,50"), or one tap on a preset amount. A plain form, so it
 * works before the page's script has loaded; the idempotency key makes a double submit one top-up. The typed
 * amount's button comes first: Enter in the field submits with the form's first button.
 */
export function TopUpForm({ presetsCents, idempotencyKey, verified, available, errors, message }: TopUpFormProps) {
  const { t } = useTranslation();
  const money = useMoney();
  if (!available) return <Notice tone="info">{t("Top-ups are not available right now.")}</Notice>;
  if (!verified) {
    return (
      <Notice tone="info">
        {t("Your email didn't verified yet.")}{" "}
        <Link to="/email/verify" className="link">
          {t("Verify your email to top up your wallet.")}
        </Link>
      </Notice>
    );
  }
  const amountErrors = errors.amount ?? errors.amountCents;
  return (
    <AppForm method="post" className="space-y-4" noValidate>
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {message && !amountErrors ? <Notice tone="error">{message}</Notice> : null}
      <Field
        label={t("Amount (USD)")}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        placeholder="25.00"
        errors={amountErrors}
      />
      <SubmitButton pendingText={t("Starting…")} name="intent" value="typed">
        {t("Top up")}
      </SubmitButton>
      <fieldset>
        <legend className="mb-2 text-sm font-medium">{t("Or top up one of these amounts")}</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {presetsCents.map((cents) => (
            <button
              key={cents}
              type="submit"
              name="presetCents"
              value={cents}
              className="btn-secondary"
              aria-label={t("Top up {{amount}}", { amount: money(cents) })}
            >
              {money(cents)}
            </button>
          ))}
        </div>
      </fieldset>
    </AppForm>
  );
}
