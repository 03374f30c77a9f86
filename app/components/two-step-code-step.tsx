import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TwoStepChallenge } from "@shared/contracts/two-step";
import { AuthCard } from "~/components/auth-card";
import { AppForm, Field, FormNotice, SubmitButton } from "~/components/forms";
import type { SignInFormResult } from "~/lib/two-step-form.server";

/**
 * The second step of a sign-in (two-step sign-in on): the code from the authenticator app, or a recovery code, or
 * a code emailed on request; and whether to trust this device for 30 days. The one field takes any of the three
 * (the server tells them apart), so the form works before JavaScript; with it, "Use a recovery code" only
 * changes what the field asks for.
 */
export function TwoStepCodeStep({
  challenge,
  result,
  action,
}: {
  challenge: TwoStepChallenge;
  result: SignInFormResult;
  /** Where the form posts: /login's action, whichever page asked. */
  action?: string;
}) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const errors = result.ok ? {} : result.errors;
  return (
    <AuthCard
      title={t("Two-step sign-in")}
      subtitle={
        recovery
          ? t("Enter one of your recovery codes. Each works once.")
          : t("Enter the 6-digit code from your authenticator app.")
      }
    >
      <div className="space-y-4">
        <FormNotice result={result} />
        <AppForm method="post" action={action} className="space-y-4" noValidate>
          <input type="hidden" name="challenge" value={challenge.challenge} />
          <input type="hidden" name="redirectTo" value={result.redirectTo ?? "/home"} />
          <Field
            key={recovery ? "recovery" : "app"}
            label={recovery ? t("Recovery code") : t("Code")}
            name="code"
            autoComplete="one-time-code"
            inputMode={recovery ? "text" : "numeric"}
            autoCapitalize="none"
            spellCheck={false}
            maxLength={32}
            required
            autoFocus
            errors={errors.code}
            hint={recovery ? undefined : t("Or a recovery code, or the code we emailed you.")}
          />
          <div className="flex items-center gap-2">
            <input id="trust-device" type="checkbox" name="trustDevice" className="h-4 w-4" />
            <label htmlFor="trust-device" className="text-sm">
              {t("Trust this device for 30 days")}
            </label>
          </div>
          <SubmitButton name="intent" value="two-step-code" pendingText={t("Checking…")}>
            {t("Verify")}
          </SubmitButton>
          <div className="flex flex-wrap justify-between gap-2 text-sm">
            {challenge.methods.includes("recovery") ? (
              <button
                type="button"
                className="link"
                data-needs-js
                aria-pressed={recovery}
                onClick={() => setRecovery(!recovery)}
              >
                {recovery ? t("Use the authenticator app") : t("Use a recovery code")}
              </button>
            ) : null}
            {challenge.methods.includes("email") ? (
              <SubmitButton name="intent" value="two-step-email" className="link" pendingText={t("Sending…")}>
                {t("Email me a code")}
              </SubmitButton>
            ) : null}
          </div>
        </AppForm>
      </div>
    </AuthCard>
  );
}
