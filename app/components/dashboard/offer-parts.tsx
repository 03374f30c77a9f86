import { useFetcher, type FetcherWithComponents } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Field, FormNotice } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { useMoney } from "~/components/dashboard/use-money";
import { fetcherError, IntentForm } from "~/components/profile/intent-form";

/** What Dashboard → Promotions' actions answer (FormResult). */
type OfferFormResult = { ok: true } | { ok: false; message: string; errors: Record<string, string[]> };

/** A fetcher form's last answer once it is back, and its errors by field. */
export function useFormResult(fetcher: FetcherWithComponents<unknown>) {
  const result = fetcher.state === "idle" ? (fetcher.data as OfferFormResult | undefined) : undefined;
  return { result, errors: result && !result.ok ? result.errors : {} };
}

/**
 * A number that grows each time the form's action has worked: the key of the form's fields, so that a new offer
 * starts from empty fields once the last one is made.
 */
function useRoundAfterSuccess(fetcher: FetcherWithComponents<unknown>): number {
  const [round, setRound] = useState(0);
  const { result } = useFormResult(fetcher);
  useEffect(() => {
    if (result?.ok) setRound((last) => last + 1);
  }, [result]);
  return round;
}

/** The end of `day` ("2030-05-31", a date input's value) in the browser's time zone, as an ISO time; "" if none. */
function endOfLocalDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return "";
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999).toISOString();
}

/**
 * The last day an offer runs: a date input, sent as `endsAt`, the end of that day in the creator's time zone (the
 * server knows only UTC). Its errors are the ones on `endsAt`.
 */
export function LastDayField({ errors }: { errors?: string[] }) {
  const { t } = useTranslation();
  const [day, setDay] = useState("");
  return (
    <>
      <Field
        label={t("Last day")}
        name="endsOn"
        type="date"
        className="input w-auto"
        errors={errors}
        hint={t("It ends at the end of this day, your time.")}
        onChange={(event) => setDay(event.currentTarget.value)}
      />
      <input type="hidden" name="endsAt" value={endOfLocalDay(day)} />
    </>
  );
}

/** A whole number field (percent, days, a limit): typed as text, checked by the server, which names the bounds. */
export function NumberField({
  label,
  name,
  hint,
  errors,
  defaultValue,
  onChange,
}: {
  label: string;
  name: string;
  hint: string;
  errors?: string[];
  defaultValue?: string;
  onChange?: (text: string) => void;
}) {
  return (
    <Field
      label={label}
      name={name}
      inputMode="numeric"
      autoComplete="off"
      className="input w-32"
      hint={hint}
      errors={errors}
      defaultValue={defaultValue}
      onChange={onChange && ((event) => onChange(event.currentTarget.value))}
    />
  );
}

/** A form section's submit button, disabled while its request is on its way. */
export function SaveButton({ fetcher, children }: { fetcher: FetcherWithComponents<unknown>; children: ReactNode }) {
  return (
    <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
      {children}
    </button>
  );
}

/** Running or ended, as a badge. */
export function OfferStatus({ running }: { running: boolean }) {
  const { t } = useTranslation();
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${
        running
          ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
          : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300"
      }`}
    >
      {running ? t("Running") : t("Ended")}
    </span>
  );
}

/** When an offer ends (running) or ended: early, or at its end date. */
export function OfferEnd({ running, endsAt, endedAt }: { running: boolean; endsAt: string; endedAt: string | null }) {
  const { t } = useTranslation();
  return (
    <div>
      <dt className="text-slate-600 dark:text-slate-400">{running ? t("Ends") : t("Ended")}</dt>
      <dd>
        <LocalTime iso={running ? endsAt : (endedAt ?? endsAt)} dateOnly />
      </dd>
    </div>
  );
}

/** What an offer brought: claims (of its limit), fans still subscribed, revenue. `children`: more terms first. */
export function OfferFigures({
  claims,
  claimLimit = null,
  stillSubscribed,
  revenueCents,
  children,
}: {
  claims: number;
  claimLimit?: number | null;
  stillSubscribed: number;
  revenueCents: number;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
      {children}
      <div>
        <dt className="text-slate-600 dark:text-slate-400">{t("Claims")}</dt>
        <dd>{claimLimit === null ? claims : t("{{claims}} of {{limit}}", { claims, limit: claimLimit })}</dd>
      </div>
      <div>
        <dt className="text-slate-600 dark:text-slate-400">{t("Still subscribed")}</dt>
        <dd>{stillSubscribed}</dd>
      </div>
      <div>
        <dt className="text-slate-600 dark:text-slate-400">{t("Revenue")}</dt>
        <dd>{money(revenueCents)}</dd>
      </div>
    </dl>
  );
}

/** Ends a running promotion or trial link now; `describedBy` names the offer, for a screen reader. */
export function EndOfferButton({ offerId, describedBy }: { offerId: number; describedBy: string }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const error = fetcherError(fetcher);
  return (
    <IntentForm fetcher={fetcher} intent="end" fields={{ offerId }} className="space-y-1">
      <button
        type="submit"
        className="btn-secondary px-4 py-1.5 text-sm"
        disabled={fetcher.state !== "idle"}
        aria-describedby={describedBy}
      >
        {t("End now")}
      </button>
      {error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </IntentForm>
  );
}

/**
 * One kind of offer on Dashboard → Promotions: its heading (which names the region), what it does, the form that
 * makes one, then the ones made, or `empty` when there are none.
 */
export function OfferSection({
  id,
  title,
  description,
  form,
  listTitle,
  empty,
  items,
}: {
  id: string;
  title: string;
  description: string;
  form: ReactNode;
  listTitle: string;
  empty: string;
  items: ReactNode[];
}) {
  return (
    <section aria-labelledby={id} className="space-y-4 p-4">
      <h3 id={id} className="text-lg font-semibold">
        {title}
      </h3>
      <p className="text-slate-600 dark:text-slate-400">{description}</p>
      {form}
      <h4 className="font-semibold">{listTitle}</h4>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{empty}</p>
      ) : (
        <ul className="space-y-3">{items}</ul>
      )}
    </section>
  );
}

/**
 * The form that makes one offer (`intent`): its title, the answer's notice, the fields (given the errors by field;
 * emptied once an offer is made) and the button.
 */
export function OfferForm({
  intent,
  title,
  saved,
  submit,
  fields,
}: {
  intent: string;
  title: string;
  saved: string;
  submit: string;
  fields: (errors: Record<string, string[]>) => ReactNode;
}) {
  const fetcher = useFetcher();
  const { result, errors } = useFormResult(fetcher);
  const round = useRoundAfterSuccess(fetcher);
  return (
    <IntentForm
      fetcher={fetcher}
      intent={intent}
      className="max-w-lg space-y-4 rounded-xl border border-slate-200 p-4 dark:border-slate-800"
    >
      <h4 className="font-semibold">{title}</h4>
      <FormNotice result={result} saved={saved} />
      <div key={round} className="space-y-4">
        {fields(errors)}
      </div>
      <SaveButton fetcher={fetcher}>{submit}</SaveButton>
    </IntentForm>
  );
}
