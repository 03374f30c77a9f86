import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PromotionView } from "@shared/contracts/offers";
import {
  MAX_OFFER_PERIODS,
  MAX_PROMOTION_PERCENT,
  MAX_TRIAL_DAYS,
  MIN_PROMOTION_PERCENT,
  MIN_TRIAL_DAYS,
  PROMOTION_AUDIENCES,
  type PromotionAudience,
} from "@shared/contracts/offer-constants";
import {
  EndOfferButton,
  LastDayField,
  NumberField,
  OfferEnd,
  OfferFigures,
  OfferForm,
  OfferSection,
  OfferStatus,
} from "~/components/dashboard/offer-parts";

/** A promotion's audience as the form's choice names it ("Both" beside the other two). */
function useAudienceChoice() {
  const { t } = useTranslation();
  return (audience: PromotionAudience) =>
    ({ new: t("New fans"), expired: t("Expired fans"), both: t("Both") })[audience];
}

/** A promotion's audience as its terms say it. */
function useAudienceTerms() {
  const { t } = useTranslation();
  return (audience: PromotionAudience) =>
    ({ new: t("For new fans"), expired: t("For expired fans"), both: t("For new and expired fans") })[audience];
}

/** Dashboard → Promotions: the form that starts a promotion, then every promotion with its figures. */
export function Promotions({ promotions }: { promotions: PromotionView[] }) {
  const { t } = useTranslation();
  return (
    <OfferSection
      id="promotions-heading"
      title={t("Price promotions")}
      description={t(
        "A discount on your weekly, monthly and yearly plans for a while. At most one promotion runs for each audience.",
      )}
      form={<PromotionForm />}
      listTitle={t("Your promotions")}
      empty={t("No promotions yet.")}
      items={promotions.map((promotion) => (
        <PromotionItem key={promotion.id} promotion={promotion} />
      ))}
    />
  );
}

/** A whole number as typed, or null. */
const typedNumber = (text: string) => (/^\s*\d+\s*%?\s*$/.test(text) ? Number.parseInt(text, 10) : null);

function PromotionForm() {
  const { t } = useTranslation();
  return (
    <OfferForm
      intent="promotion"
      title={t("Start a promotion")}
      saved={t("Your promotion has started.")}
      submit={t("Start promotion")}
      fields={(errors) => <PromotionFields errors={errors} />}
    />
  );
}

function PromotionFields({ errors }: { errors: Record<string, string[]> }) {
  const { t } = useTranslation();
  const audienceLabel = useAudienceChoice();
  const id = useId();
  // At 100% off the promotion is a free trial: its length replaces how many periods the price holds (each field
  // keyed, so that neither inherits what was typed in the other).
  const [percentText, setPercentText] = useState("");
  const free = typedNumber(percentText) === MAX_PROMOTION_PERCENT;
  return (
    <>
      <NumberField
        label={t("Percent off")}
        name="percentOff"
        hint={t("{{min}}% to {{max}}%. At 100%, fans get a free trial, then pay the regular price.", {
          min: MIN_PROMOTION_PERCENT,
          max: MAX_PROMOTION_PERCENT,
        })}
        errors={errors.percentOff}
        onChange={setPercentText}
      />
      {free ? (
        <NumberField
          key="trialDays"
          label={t("Free days")}
          name="trialDays"
          hint={t("{{min}} to {{max}} days.", { min: MIN_TRIAL_DAYS, max: MAX_TRIAL_DAYS })}
          errors={errors.trialDays}
        />
      ) : (
        <NumberField
          key="periods"
          label={t("How many periods the price holds")}
          name="periods"
          defaultValue="1"
          hint={t("1 to {{max}}: the first payment, then the renewals after it.", { max: MAX_OFFER_PERIODS })}
          errors={errors.periods}
        />
      )}
      <fieldset aria-describedby={errors.audience?.length ? `${id}-audience-error` : undefined}>
        <legend className="text-sm font-medium">{t("Who it is for")}</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {PROMOTION_AUDIENCES.map((audience) => (
            <label key={audience} className="flex items-center gap-2">
              <input
                type="radio"
                name="audience"
                value={audience}
                defaultChecked={audience === "new"}
                className="h-4 w-4"
              />
              {audienceLabel(audience)}
            </label>
          ))}
        </div>
        {errors.audience?.length ? (
          <p id={`${id}-audience-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
            {errors.audience.join(" ")}
          </p>
        ) : null}
      </fieldset>
      <NumberField
        label={t("Claim limit")}
        name="claimLimit"
        hint={t("Optional: how many fans can claim it.")}
        errors={errors.claimLimit}
      />
      <LastDayField errors={errors.endsAt} />
    </>
  );
}

function PromotionItem({ promotion }: { promotion: PromotionView }) {
  const { t } = useTranslation();
  const audienceTerms = useAudienceTerms();
  const titleId = useId();
  const { trialDays, percentOff, periods } = promotion;
  const terms =
    trialDays !== null
      ? trialDays === 1
        ? t("Free for 1 day")
        : t("Free for {{days}} days", { days: trialDays })
      : t("{{percent}}% off", { percent: percentOff });
  return (
    <li className="space-y-3 rounded-xl border border-slate-200 p-4 dark:border-slate-800" data-testid="promotion">
      <div className="flex flex-wrap items-center gap-2">
        <p id={titleId} className="font-semibold">
          {terms} · {audienceTerms(promotion.audience)}
        </p>
        <OfferStatus running={promotion.running} />
      </div>
      <OfferFigures
        claims={promotion.claims}
        claimLimit={promotion.claimLimit}
        stillSubscribed={promotion.stillSubscribed}
        revenueCents={promotion.revenueCents}
      >
        {trialDays === null ? (
          <div>
            <dt className="text-slate-600 dark:text-slate-400">{t("Price holds for")}</dt>
            <dd>{periods === 1 ? t("1 period") : t("{{count}} periods", { count: periods })}</dd>
          </div>
        ) : null}
        <OfferEnd running={promotion.running} endsAt={promotion.endsAt} endedAt={promotion.endedAt} />
      </OfferFigures>
      {promotion.running ? <EndOfferButton offerId={promotion.id} describedBy={titleId} /> : null}
    </li>
  );
}
