import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TrialLinkView } from "@shared/contracts/offers";
import { MAX_TRIAL_DAYS, MIN_TRIAL_DAYS } from "@shared/contracts/offer-constants";
import { Field } from "~/components/forms";
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

/** How long "Copied" stays beside the button. */
const COPIED_MS = 4000;

/**
 * Dashboard → Promotions: the form that makes a free-trial link, then every link (`profileUrl?trial=CODE`) to copy,
 * with its figures.
 */
export function TrialLinks({ trialLinks, profileUrl }: { trialLinks: TrialLinkView[]; profileUrl: string }) {
  const { t } = useTranslation();
  return (
    <OfferSection
      id="trial-links-heading"
      title={t("Free-trial links")}
      description={t(
        "A link that gives days for free to fans who have never subscribed to you. At the trial's end, they pay the plan they chose unless they cancel.",
      )}
      form={<TrialLinkForm />}
      listTitle={t("Your trial links")}
      empty={t("No trial links yet.")}
      items={trialLinks.map((link) => (
        <TrialLinkItem key={link.id} link={link} url={`${profileUrl}?trial=${link.code}`} />
      ))}
    />
  );
}

function TrialLinkForm() {
  const { t } = useTranslation();
  return (
    <OfferForm
      intent="trial-link"
      title={t("Make a trial link")}
      saved={t("Your trial link is ready.")}
      submit={t("Make link")}
      fields={(errors) => (
        <>
          <NumberField
            label={t("Free days")}
            name="days"
            hint={t("{{min}} to {{max}} days.", { min: MIN_TRIAL_DAYS, max: MAX_TRIAL_DAYS })}
            errors={errors.days}
          />
          <NumberField
            label={t("Claim limit")}
            name="claimLimit"
            hint={t("Optional: how many fans can claim it.")}
            errors={errors.claimLimit}
          />
          <LastDayField errors={errors.endsAt} />
          <Field
            label={t("Link code")}
            name="code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            dir="ltr"
            className="input max-w-xs"
            hint={t("Optional: 4 to 32 lowercase letters, digits or dashes. Left empty, one is made up.")}
            errors={errors.code}
          />
        </>
      )}
    />
  );
}

function TrialLinkItem({ link, url }: { link: TrialLinkView; url: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <li className="space-y-3 rounded-xl border border-slate-200 p-4 dark:border-slate-800" data-testid="trial-link">
      <div className="flex flex-wrap items-center gap-2">
        <p id={titleId} className="font-semibold">
          {link.days === 1 ? t("1 day free") : t("{{days}} days free", { days: link.days })}
        </p>
        <OfferStatus running={link.running} />
      </div>
      <p className="break-all font-mono text-sm">
        <span id={`${titleId}-url`} dir="ltr">
          {url}
        </span>
      </p>
      {link.running ? <CopyLink url={url} urlId={`${titleId}-url`} /> : null}
      <OfferFigures
        claims={link.claims}
        claimLimit={link.claimLimit}
        stillSubscribed={link.stillSubscribed}
        revenueCents={link.revenueCents}
      >
        <OfferEnd running={link.running} endsAt={link.endsAt} endedAt={link.endedAt} />
      </OfferFigures>
      {link.running ? <EndOfferButton offerId={link.id} describedBy={`${titleId} ${titleId}-url`} /> : null}
    </li>
  );
}

/** Copies `url` to the clipboard and says so beside the button, for a while, also to a screen reader. */
function CopyLink({ url, urlId }: { url: string; urlId: string }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<"copied" | "failed" | null>(null);
  useEffect(() => {
    if (status !== "copied") return;
    const timer = setTimeout(() => setStatus(null), COPIED_MS);
    return () => clearTimeout(timer);
  }, [status]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setStatus("copied");
    } catch (error) {
      // No permission, or no clipboard outside a secure page: the link is on screen to select.
      console.info("copy refused", error);
      setStatus("failed");
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        className="btn-secondary px-4 py-1.5 text-sm"
        onClick={() => void copy()}
        aria-describedby={urlId}
      >
        {t("Copy link")}
      </button>
      <span role="status" aria-live="polite" className="text-sm text-emerald-700 dark:text-emerald-400">
        {status === "copied" ? t("Copied") : status === "failed" ? t("Select the link to copy it.") : ""}
      </span>
    </div>
  );
}
