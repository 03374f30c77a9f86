import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "~/components/moderation/modal";
import { MAX_TIP_NOTE_LENGTH } from "@shared/contracts/money-constants";
import { formatCents } from "@shared/money";
import { parseDollars } from "@shared/typed-dollars";
import { useSession } from "~/lib/session";
import { useUpdateActions } from "~/lib/updates";
import { PaymentErrorNotice } from "~/components/money/payment-error";
import type { TipAnswer, TipTarget } from "~/components/money/tip-button";
import { tipRequest } from "~/components/money/tip-request";

/** The amounts offered as buttons; any other amount can be typed ($1 to $200, checked by the server). */
const PRESETS_CENTS = [500, 1000, 2000, 5000] as const;

/** The tip form: preset or typed amount, optional message, Send (loaded when a Tip button is first pressed). */
export function TipDialog({
  target,
  creatorName,
  attemptKey,
  onClose,
  onTipped,
}: {
  target: TipTarget;
  creatorName: string;
  attemptKey: string;
  onClose: () => void;
  onTipped?: (answer: TipAnswer) => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const { refresh: refreshUpdates } = useUpdateActions();
  const id = useId();
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [amountError, setAmountError] = useState<string | null>(null);
  const [sentCents, setSentCents] = useState<number | null>(null);
  const money = (cents: number) => formatCents(cents, i18n.language);

  // The button says what it sends, once the amount reads as one.
  const typedCents = parseDollars(amount);

  async function send(event: FormEvent) {
    event.preventDefault();
    const amountCents = parseDollars(amount);
    setError(null);
    // The server checks the range; only what is not an amount stops here.
    if (amountCents === null) {
      setAmountError(t("Enter an amount in dollars, like 12.50."));
      return;
    }
    setAmountError(null);
    setSending(true);
    const { path, check } = tipRequest(target);
    try {
      const answer = await api.post(
        path,
        { amountCents, idempotencyKey: attemptKey, ...(note.trim() ? { note: note.trim() } : {}) },
        check,
      );
      setSentCents(amountCents);
      onTipped?.(answer);
      // The wallet changed: the sidebar's balance flag may have too.
      refreshUpdates();
    } catch (failure) {
      setError(failure);
    } finally {
      setSending(false);
    }
  }

  return (
    <Modal open title={t("Send a tip to {{name}}", { name: creatorName })} onClose={onClose}>
      {sentCents !== null ? (
        <div className="space-y-4">
          <p role="status">{t("Your tip of {{amount}} was sent. Thank you!", { amount: money(sentCents) })}</p>
          <button type="button" className="btn-primary" onClick={onClose}>
            {t("Close")}
          </button>
        </div>
      ) : (
        <form className="space-y-4" onSubmit={(event) => void send(event)} noValidate>
          <fieldset>
            <legend className="mb-2 text-sm font-medium">{t("Choose an amount")}</legend>
            <div className="flex flex-wrap gap-2">
              {PRESETS_CENTS.map((cents) => {
                const value = (cents / 100).toFixed(2);
                return (
                  <button
                    key={cents}
                    type="button"
                    className={amount === value ? "btn-primary w-auto" : "btn-secondary"}
                    aria-pressed={amount === value}
                    onClick={() => setAmount(value)}
                  >
                    {money(cents)}
                  </button>
                );
              })}
            </div>
          </fieldset>
          <div className="space-y-1">
            <label htmlFor={`${id}-amount`} className="block text-sm font-medium">
              {t("Amount in dollars")}
            </label>
            <input
              id={`${id}-amount`}
              inputMode="decimal"
              autoComplete="off"
              className="input"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              aria-invalid={amountError ? true : undefined}
              aria-describedby={amountError ? `${id}-amount-error` : undefined}
            />
            {amountError ? (
              <p id={`${id}-amount-error`} className="text-sm text-red-700 dark:text-red-400">
                {amountError}
              </p>
            ) : null}
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-note`} className="block text-sm font-medium">
              {t("Message (optional)")}
            </label>
            <textarea
              id={`${id}-note`}
              className="input min-h-20"
              maxLength={MAX_TIP_NOTE_LENGTH}
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
          </div>
          <PaymentErrorNotice error={error} />
          <button type="submit" className="btn-primary" disabled={sending}>
            {sending
              ? t("Sending…")
              : typedCents !== null && typedCents > 0
                ? t("Send {{amount}}", { amount: money(typedCents) })
                : t("Send")}
          </button>
        </form>
      )}
    </Modal>
  );
}
