import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Audience } from "@shared/contracts/posts";

/** The browser's time zone, known only after hydration (the server render cannot know it). */
function useTimeZone(): string | null {
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  return zone;
}

function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-600 dark:text-red-400">
      {errors.join(" ")}
    </p>
  );
}

/** The post's text: the composer hides the label behind a placeholder, the edit dialog shows it. */
export function PostTextField({
  value,
  onChange,
  errors,
  placeholder,
}: {
  value: string;
  onChange: (value: string) => void;
  errors?: string[];
  placeholder?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className={placeholder ? "sr-only" : "block text-sm font-medium"}>
        {t("Post text")}
      </label>
      <textarea
        id={id}
        className="input min-h-[6rem] resize-y"
        placeholder={placeholder}
        maxLength={5000}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error` : undefined}
      />
      <FieldError id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** Who can see the post: no default, so that choosing is a decision (spec §5: the field is required). */
export function AudienceSelect({
  value,
  onChange,
  errors,
}: {
  value: Audience | "";
  onChange: (value: Audience | "") => void;
  errors?: string[];
}) {
  const { t } = useTranslation();
  const id = useId();
  const options: { value: Audience; label: string }[] = [
    { value: "everyone", label: t("Everyone") },
    { value: "followers", label: t("Followers") },
    { value: "subscribers", label: t("Subscribers") },
  ];
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {t("Who can see")}
      </label>
      <select
        id={id}
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value as Audience | "")}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error` : undefined}
      >
        <option value="">{t("Choose who can see it")}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} errors={errors} />
    </div>
  );
}

export function PriceField({
  value,
  onChange,
  errors,
}: {
  value: string;
  onChange: (value: string) => void;
  errors?: string[];
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {t("Price in USD (optional)")}
      </label>
      <input
        id={id}
        className="input"
        // Text rather than number: a number field hides what it cannot read ("12,50" in an English browser) as "",
        // which would publish the post for free; parseDollars reads every way of writing the amount instead.
        type="text"
        inputMode="decimal"
        autoComplete="off"
        placeholder={t("Free")}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={`${id}-hint${errors?.length ? ` ${id}-error` : ""}`}
      />
      <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
        {t("A price makes it a paid post: fans unlock it by buying it.")}
      </p>
      <FieldError id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** The publication time in the person's own zone, which is named next to it. */
export function ScheduleField({
  value,
  onChange,
  errors,
}: {
  value: string;
  onChange: (value: string) => void;
  errors?: string[];
}) {
  const { t } = useTranslation();
  const id = useId();
  const zone = useTimeZone();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {t("Publish on")}
      </label>
      <input
        id={id}
        className="input"
        type="datetime-local"
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={`${id}-zone${errors?.length ? ` ${id}-error` : ""}`}
      />
      <p id={`${id}-zone`} className="text-xs text-slate-500 dark:text-slate-400">
        {zone ? t("Time zone: {{zone}}", { zone }) : null}
      </p>
      <FieldError id={`${id}-error`} errors={errors} />
    </div>
  );
}
