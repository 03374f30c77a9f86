import { useTranslation } from "react-i18next";
import { LocalTime } from "~/components/local-time";
import { IntentForm } from "~/components/profile/intent-form";
import { useFormFetcher } from "~/components/use-form-fetcher";

/**
 * Above every page of the shell while the person's account is leaving: its date and "Keep my account", which
 * cancels the deletion (the privacy settings' action) wherever they are.
 */
export function AccountDeletionBanner({ deletesAt }: { deletesAt: string }) {
  const { t } = useTranslation();
  const { fetcher } = useFormFetcher();
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="flex-1">
        {t("Your account will be deleted on this date:")}{" "}
        <LocalTime iso={deletesAt} dateOnly className="font-semibold" />
      </p>
      <IntentForm fetcher={fetcher} intent="deletion-cancel" action="/settings/privacy">
        <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
          {t("Keep my account")}
        </button>
      </IntentForm>
    </div>
  );
}
