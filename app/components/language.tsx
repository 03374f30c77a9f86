import { useRevalidator } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { matchLanguage, SUPPORTED_LANGUAGES } from "@shared/i18n/languages";
import { LANGUAGE_NAMES } from "@shared/i18n/language-names";
import { rememberLanguage } from "~/i18n/client";

/**
 * The language picker: each option in its own language. The choice is stored (cookie and
 * localStorage) and the page data is reloaded, so the server speaks it from then on and Arabic turns the page
 * right to left without a full reload.
 */
export function LanguagePicker({ className = "" }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const id = useId();
  return (
    <div className={`flex items-center gap-2 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {t("Language")}
      </label>
      <select
        id={id}
        value={matchLanguage(i18n.language) ?? "en"}
        onChange={(event) => {
          rememberLanguage(event.target.value);
          revalidator.revalidate();
        }}
        className="input w-auto py-1.5"
      >
        {SUPPORTED_LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
