import { useId } from "react";
import { useTranslation } from "react-i18next";

/**
 * A message's optional pay-per-view price, one line high (the message and mass-message composers). Text, not a
 * number field, for the same reason as the post composer's PriceField: parseDollars reads every way of writing it.
 */
export function InlinePriceField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {t("Price in USD (optional)")}
      </label>
      <input
        id={id}
        className="input w-28"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        placeholder={t("Free")}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
