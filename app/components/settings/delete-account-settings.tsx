import { useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AccountDeletionView } from "@shared/contracts/account-deletion";
import { Field, Notice } from "~/components/forms";
import { useMoney } from "~/components/dashboard/use-money";
import { LocalTime } from "~/components/local-time";
import { Modal } from "~/components/moderation/modal";
import { IntentForm } from "~/components/profile/intent-form";
import { useFormFetcher } from "~/components/use-form-fetcher";

/** What happens to the person's money, said before they confirm (docs/decisions/account-deletion.md). */
function MoneyRule({ state }: { state: AccountDeletionView }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <ul className="list-disc space-y-1 ps-5 text-sm">
      {state.isCreator ? (
        <>
          <li>
            {t(
              "Earnings still held ({{pending}}) keep freeing up during the 30 days; a withdrawal you requested is paid as usual.",
              { pending: money(state.pendingCents) },
            )}
          </li>
          <li>
            {t(
              "On the last day, everything available (now {{available}}) is paid out to your payout method, even under the usual minimum.",
              { available: money(state.availableCents) },
            )}
          </li>
        </>
      ) : null}
      <li>
        {state.walletCents > 0
          ? t("Your wallet balance of {{amount}} is forfeited when your account is deleted: spend it first.", {
              amount: money(state.walletCents),
            })
          : t("Your wallet is empty: nothing is lost.")}
      </li>
      <li>{t("Your subscriptions stop renewing at once, and so do your fans' subscriptions to you.")}</li>
      <li>{t("Payment records stay, as the law requires, without your name.")}</li>
    </ul>
  );
}

/**
 * Settings → Privacy and data → Delete my account: what goes and when, the money rule, and a dialog asking for the
 * password (and a two-step code when that is on). While the account is leaving: its date and "Keep my account".
 */
export function DeleteAccountSettings() {
  const { t } = useTranslation();
  const { deletion: state, twoStep } = useLoaderData<{
    deletion: AccountDeletionView | null;
    twoStep: { enabled: boolean } | null;
  }>();
  const [open, setOpen] = useState(false);
  const { fetcher, container, result, errors } = useFormFetcher({ clearOnSuccess: true });
  const keep = useFormFetcher();
  if (!state) return null;
  const needsPayoutMethod = state.isCreator && state.pendingCents + state.availableCents > 0 && !state.hasPayoutMethod;
  return (
    <section aria-labelledby="delete-account" className="max-w-lg space-y-3">
      <h3 id="delete-account" className="font-semibold">
        {t("Delete my account")}
      </h3>
      {state.deletesAt ? (
        <div ref={keep.container} className="space-y-3">
          <Notice tone="info">
            {t("Your account will be deleted on this date:")} <LocalTime iso={state.deletesAt} dateOnly />.{" "}
            {t("It is hidden from everyone until then.")}
          </Notice>
          <IntentForm fetcher={keep.fetcher} intent="deletion-cancel">
            <button type="submit" className="btn-primary w-auto" disabled={keep.fetcher.state !== "idle"}>
              {t("Keep my account")}
            </button>
          </IntentForm>
        </div>
      ) : (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {t(
              "Your profile, posts, media, stories and comments are hidden at once and deleted after 30 days, with the text of the messages you sent. Sign in before then to keep your account.",
            )}
          </p>
          {keep.result?.ok ? <Notice tone="success">{t("Your account is kept.")}</Notice> : null}
          <button type="button" className="btn-secondary w-auto" onClick={() => setOpen(true)}>
            {t("Delete my account")}
          </button>
          <Modal open={open} title={t("Delete my account")} onClose={() => setOpen(false)}>
            <div ref={container} className="space-y-4">
              <MoneyRule state={state} />
              {needsPayoutMethod ? (
                <Notice tone="info">
                  {t("Add a payout method in your dashboard first, so that your earnings reach you.")}
                </Notice>
              ) : null}
              {result && !result.ok && !Object.keys(result.errors).length ? (
                <Notice tone="error">{result.message}</Notice>
              ) : null}
              <IntentForm fetcher={fetcher} intent="deletion-request" className="space-y-3">
                <Field
                  label={t("Password")}
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required
                  errors={errors.password}
                />
                {twoStep?.enabled ? (
                  <Field
                    label={t("Code from the app, or a recovery code")}
                    name="code"
                    autoComplete="one-time-code"
                    required
                    errors={errors.code}
                  />
                ) : null}
                <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
                  {t("Delete my account in 30 days")}
                </button>
              </IntentForm>
            </div>
          </Modal>
        </>
      )}
    </section>
  );
}
