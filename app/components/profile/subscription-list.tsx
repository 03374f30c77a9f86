import { Link, useFetcher } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { SubscriptionListItem } from "@shared/contracts/subscriptions";
import { useAttemptKey } from "~/components/money/attempt-key";
import { EmptyState } from "~/components/page";
import { LocalTime } from "~/components/local-time";
import { Avatar } from "~/components/shell/avatar";
import { fetcherError, IntentForm } from "~/components/profile/intent-form";
import { useSubscriptionFacts } from "~/components/profile/subscription-facts";
import { NameAndHandle } from "~/components/handle";

/**
 * Settings → Subscriptions: creator, plan, start and renewal dates, status, and a trial, gift, discount or next plan
 * when there is one, with Cancel or Resubscribe.
 */
export function SubscriptionList({ subscriptions }: { subscriptions: SubscriptionListItem[] }) {
  const { t } = useTranslation();
  if (subscriptions.length === 0)
    return (
      <EmptyState
        icon="profile"
        title={t("No subscriptions yet")}
        text={t("Subscribe to a creator from their profile to see their subscriber posts.")}
      />
    );
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800">
      {subscriptions.map((subscription) => (
        <SubscriptionRow key={subscription.id} subscription={subscription} />
      ))}
    </ul>
  );
}

function SubscriptionRow({ subscription }: { subscription: SubscriptionListItem }) {
  const { t } = useTranslation();
  const { plan, facts } = useSubscriptionFacts(subscription);
  const fetcher = useFetcher();
  const error = fetcherError(fetcher);
  // Resubscribing to a paid plan charges the wallet: one key for this row's attempt, kept across retries.
  const attempt = useAttemptKey({ atMount: true });
  // The price Resubscribe pays: the one shown, or the plan's current one once the server said it changed (its
  // message shows it), so that pressing again confirms that price.
  const refusedAt = (fetcher.data as { priceCents?: number } | undefined)?.priceCents;
  const priceCents = refusedAt ?? subscription.priceCents;
  const status = { active: t("Active"), cancelled: t("Cancelled"), expired: t("Expired") }[subscription.status];
  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <Link to={`/${subscription.creator.username}`} className="flex min-w-0 flex-1 items-center gap-3">
        <Avatar url={subscription.creator.avatarUrl} name={subscription.creator.name} />
        <span className="min-w-0">
          <NameAndHandle name={subscription.creator.name} username={subscription.creator.username} />
        </span>
      </Link>
      <dl className="grid grid-cols-2 gap-x-4 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">{t("Plan")}</dt>
        <dd>{plan}</dd>
        <dt className="text-slate-600 dark:text-slate-400">{t("Started")}</dt>
        <dd>
          <LocalTime iso={subscription.startedAt} />
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">
          {subscription.status === "active" ? t("Renews") : t("Ends")}
        </dt>
        <dd>
          <LocalTime iso={subscription.endedAt ?? subscription.currentPeriodEnd} />
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">{t("Status")}</dt>
        <dd data-subscription-status={subscription.status}>{status}</dd>
      </dl>
      {facts.length > 0 ? (
        <ul className="basis-full text-sm text-slate-600 dark:text-slate-400" data-subscription-facts>
          {facts.map((fact) => (
            <li key={fact.key}>{fact.node}</li>
          ))}
        </ul>
      ) : null}
      {subscription.status === "active" ? (
        <IntentForm fetcher={fetcher} intent="cancel" fields={{ subscriptionId: subscription.id }}>
          <button type="submit" className="btn-secondary" disabled={fetcher.state !== "idle"}>
            {t("Cancel subscription")}
          </button>
        </IntentForm>
      ) : (
        <IntentForm
          fetcher={fetcher}
          intent="resubscribe"
          fields={{
            username: subscription.creator.username,
            period: subscription.period,
            ...(subscription.bundleMonths ? { bundleMonths: subscription.bundleMonths } : {}),
            priceCents,
            idempotencyKey: attempt.key,
          }}
        >
          <button type="submit" className="btn-secondary" disabled={fetcher.state !== "idle"}>
            {t("Resubscribe")}
          </button>
        </IntentForm>
      )}
      {error ? (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </li>
  );
}
