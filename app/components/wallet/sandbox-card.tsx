import { Link } from "@remix-run/react";
import type { FormEvent, KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import type { PaymentView } from "@shared/contracts/money";
import type { SandboxOutcome } from "@shared/contracts/money-constants";
import { AppForm, Field, Notice, SubmitButton } from "~/components/forms";
import { useMoney } from "~/components/dashboard/use-money";
import { formatCardNumber, formatExpiry, type FieldEdit } from "~/components/wallet/card-format";

/** Rewrites the field as its formatter says after each change, the caret kept after the same digits. */
function formatsAs(format: (text: string, caret: number, deleting: boolean) => FieldEdit) {
  return (event: FormEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const deleting = (event.nativeEvent as InputEvent).inputType?.startsWith("delete") ?? false;
    const edit = format(input.value, input.selectionStart ?? input.value.length, deleting);
    if (edit.value === input.value) return;
    input.value = edit.value;
    input.setSelectionRange(edit.caret, edit.caret);
  };
}

/** Backspace right after a space or slash the formatter put in deletes the digit before it, not nothing. */
function skipSeparator(event: KeyboardEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  const caret = input.selectionStart;
  if (event.key !== "Backspace" || caret === null || caret !== input.selectionEnd || caret === 0) return;
  if (/[\s/]/.test(input.value[caret - 1]!)) input.setSelectionRange(caret - 1, caret - 1);
}

/** The documented test numbers, so nobody mistakes the sandbox for a real checkout. */
function TestCards({ cards }: { cards: { number: string; outcome: SandboxOutcome }[] }) {
  const { t } = useTranslation();
  const meaning: Record<SandboxOutcome, string> = {
    succeeded: t("succeeds"),
    declined: t("is declined"),
    requires_confirmation: t("needs confirmation"),
  };
  return (
    <Notice tone="info">
      <p className="font-semibold">{t("Test mode: no real card is charged.")}</p>
      <ul className="mt-1 space-y-0.5">
        {cards.map((card) => (
          <li key={card.number}>
            <code dir="ltr" className="font-mono">
              {card.number}
            </code>{" "}
            {meaning[card.outcome]}
          </li>
        ))}
      </ul>
      <p className="mt-1">{t("Use any future expiry date, any 3 digits and any name. Other numbers are declined.")}</p>
    </Notice>
  );
}

export function SandboxCardForm({
  payment,
  cards,
  errors,
  message,
}: {
  payment: PaymentView;
  cards: { number: string; outcome: SandboxOutcome }[];
  errors: Record<string, string[]>;
  message: string | null;
}) {
  const { t } = useTranslation();
  const amount = useMoney()(payment.amountCents);
  return (
    <>
      <TestCards cards={cards} />
      <AppForm method="post" className="space-y-4" noValidate aria-label={t("Card details")}>
        <input type="hidden" name="intent" value="pay" />
        {message && Object.keys(errors).length === 0 ? <Notice tone="error">{message}</Notice> : null}
        <Field
          label={t("Card number")}
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          maxLength={23}
          onInput={formatsAs(formatCardNumber)}
          onKeyDown={skipSeparator}
          errors={errors.cardNumber}
        />
        <div className="grid grid-cols-2 gap-3">
          <Field
            label={t("Expiry (MM/YY)")}
            name="expiry"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="12/30"
            maxLength={5}
            onInput={formatsAs(formatExpiry)}
            onKeyDown={skipSeparator}
            errors={errors.expiry}
          />
          <Field
            label={t("Security code (CVC)")}
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            errors={errors.cvc}
          />
        </div>
        <Field label={t("Name on the card")} name="name" autoComplete="cc-name" errors={errors.name} />
        <SubmitButton pendingText={t("Paying…")}>{t("Pay {{amount}}", { amount })}</SubmitButton>
      </AppForm>
    </>
  );
}

/** The extra step some cards ask for (3-D Secure in real life). */
export function SandboxConfirmation({ payment }: { payment: PaymentView }) {
  const { t } = useTranslation();
  const amount = useMoney()(payment.amountCents);
  return (
    <section
      aria-labelledby="confirm-heading"
      className="space-y-3 rounded-2xl border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="confirm-heading" className="text-lg font-semibold">
        {t("Confirm this payment")}
      </h2>
      <p className="text-slate-600 dark:text-slate-400">
        {t("Your bank asks you to confirm the payment of {{amount}} to your wallet.", { amount })}
      </p>
      <AppForm method="post" className="flex gap-2">
        <SubmitButton name="intent" value="confirm" pendingText={t("Confirming…")} className="btn-primary w-auto">
          {t("Confirm")}
        </SubmitButton>
        <SubmitButton name="intent" value="cancel" pendingText={t("Cancelling…")} className="btn-secondary">
          {t("Cancel")}
        </SubmitButton>
      </AppForm>
    </section>
  );
}

export function SandboxFailure({ payment }: { payment: PaymentView }) {
  const { t } = useTranslation();
  const amount = useMoney()(payment.amountCents);
  return (
    <>
      <Notice tone="error">
        {t("Your top-up of {{amount}} failed.", { amount })} {payment.failureReason ? t(payment.failureReason) : null}
      </Notice>
      <Link to="/wallet" className="btn-primary">
        {t("Try again from the wallet")}
      </Link>
    </>
  );
}
