import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { RetentionSettingView } from "@shared/contracts/offers";
import { MAX_OFFER_PERIODS, MAX_RETENTION_PERCENT, MIN_RETENTION_PERCENT } from "@shared/contracts/offer-constants";
import { FormNotice } from "~/components/forms";
import { IntentForm } from "~/components/profile/intent-form";
import { NumberField, OfferFigures, SaveButton, useFormResult } from "~/components/dashboard/offer-parts";

/**
 * Dashboard → Promotions: the retention offer a fan sees on cancelling, on (with its terms) or off, and, while on,
 * what it brought.
 */
export function RetentionOffer({ retention }: { retention: RetentionSettingView | null }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const { result, errors } = useFormResult(fetcher);
  const [active, setActive] = useState(retention !== null);
  return (
    <section aria-labelledby="retention-heading" className="space-y-4 p-4">
      <h3 id="retention-heading" className="text-lg font-semibold">
        {t("Retention offer")}
      </h3>
      <p className="text-slate-600 dark:text-slate-400">
        {t("Shown to a fan who cancels: a discount on their next renewals if they stay.")}
      </p>
      {retention ? (
        <div className="space-y-3 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
          <p className="font-semibold">
            {retention.periods === 1
              ? t("On: {{percent}}% off the next renewal", { percent: retention.percentOff })
              : t("On: {{percent}}% off the next {{count}} renewals", {
                  percent: retention.percentOff,
                  count: retention.periods,
                })}
          </p>
          <OfferFigures
            claims={retention.claims}
            stillSubscribed={retention.stillSubscribed}
            revenueCents={retention.revenueCents}
          />
        </div>
      ) : null}
      <IntentForm
        fetcher={fetcher}
        intent="retention"
        className="max-w-lg space-y-4 rounded-xl border border-slate-200 p-4 dark:border-slate-800"
      >
        <FormNotice result={result} saved={t("Your retention offer has been saved.")} />
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            name="active"
            checked={active}
            onChange={(event) => setActive(event.currentTarget.checked)}
            className="h-4 w-4"
          />
          {t("Offer a discount to fans who cancel")}
        </label>
        {active ? (
          <>
            <NumberField
              label={t("Percent off")}
              name="percentOff"
              defaultValue={retention ? String(retention.percentOff) : ""}
              hint={t("{{min}}% to {{max}}%.", { min: MIN_RETENTION_PERCENT, max: MAX_RETENTION_PERCENT })}
              errors={errors.percentOff}
            />
            <NumberField
              label={t("For how many renewals")}
              name="periods"
              defaultValue={retention ? String(retention.periods) : "1"}
              hint={t("1 to {{max}}.", { max: MAX_OFFER_PERIODS })}
              errors={errors.periods}
            />
          </>
        ) : null}
        <SaveButton fetcher={fetcher}>{t("Save retention offer")}</SaveButton>
      </IntentForm>
    </section>
  );
}
