import { Link } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { FAN_KINDS, type FanKind } from "@shared/contracts/subscription-constants";
import type { FanPage, FanView } from "@shared/contracts/subscriptions";
import { formatCents } from "@shared/money";
import { LocalTime } from "~/components/local-time";
import { MessageButton } from "~/components/messages/message-button";
import { EmptyState } from "~/components/page";
import { LoadMore } from "~/components/load-more-button";
import { usePeriodLabel } from "~/components/profile/period-label";
import { Avatar } from "~/components/shell/avatar";
import { useSession } from "~/lib/session";
import { usePagedList } from "~/lib/use-paged-list";
import { NameAndHandle } from "~/components/handle";
import { fanPageShape } from "~/components/dashboard/dashboard-shapes";

/** usePagedList keys items by `id`: a fan is one member, listed once. */
const withIds = (fans: FanView[]) => fans.map((fan) => ({ ...fan, id: fan.userId }));

/** Dashboard → Fans: the creator's subscribers or followers (a tab each, in the URL), with "Message" on each row. */
export function FanList({ kind, first }: { kind: FanKind; first: FanPage }) {
  const { t } = useTranslation();
  const { api } = useSession();
  // Memoized: usePagedList starts over when the first page's array changes, so it must not be remade each render.
  const firstItems = useMemo(() => withIds(first.fans), [first.fans]);
  const list = usePagedList({ items: firstItems, nextCursor: first.nextCursor }, async (cursor: string) => {
    const page = await api.get(`/me/fans?${new URLSearchParams({ kind, cursor }).toString()}`, fanPageShape);
    return { items: withIds(page.fans), nextCursor: page.nextCursor };
  });
  const labels: Record<FanKind, string> = { subscribers: t("Subscribers"), followers: t("Followers") };

  return (
    <>
      <nav aria-label={t("Fans")} className="flex border-b border-slate-200 dark:border-slate-800">
        {FAN_KINDS.map((name) => (
          <Link
            key={name}
            to={name === "subscribers" ? "/dashboard/fans" : `/dashboard/fans?kind=${name}`}
            aria-current={kind === name ? "page" : undefined}
            className={`flex-1 px-4 py-3 text-center text-sm font-semibold ${kind === name ? "border-b-2 border-brand-600 text-brand-700 dark:text-brand-300" : "text-slate-600 hover:bg-slate-50 dark:text-slate-400 dark:hover:bg-slate-900"}`}
          >
            {labels[name]}
          </Link>
        ))}
      </nav>
      {list.items.length === 0 ? (
        kind === "subscribers" ? (
          <EmptyState
            icon="profile"
            title={t("No subscribers yet")}
            text={t("People who subscribe to you appear here, and you can message them.")}
            action={{ to: "/dashboard/plans", label: t("Subscription plans") }}
          />
        ) : (
          <EmptyState
            icon="profile"
            title={t("No followers yet")}
            text={t("People who follow you appear here, and you can message them.")}
          />
        )
      ) : (
        <ul className="divide-y divide-slate-200 px-4 dark:divide-slate-800">
          {list.items.map((fan) => (
            <FanRow key={fan.id} fan={fan} />
          ))}
        </ul>
      )}
      <LoadMore list={list} />
    </>
  );
}

function FanRow({ fan }: { fan: FanView }) {
  const { t, i18n } = useTranslation();
  const periodLabel = usePeriodLabel();
  return (
    <li data-testid="fan-row" className="flex flex-wrap items-center gap-3 py-3">
      <Link to={`/${fan.username}`} className="flex min-w-0 flex-1 items-center gap-3">
        <Avatar url={fan.avatarUrl} name={fan.name} />
        <span className="min-w-0">
          <NameAndHandle name={fan.name} username={fan.username} />
        </span>
      </Link>
      <dl className="grid grid-cols-[auto_auto] gap-x-3 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">{t("Since")}</dt>
        <dd>
          <LocalTime iso={fan.since} dateOnly />
        </dd>
        {fan.period !== null && fan.priceCents !== null ? (
          <>
            <dt className="text-slate-600 dark:text-slate-400">{t("Plan")}</dt>
            <dd>
              {fan.bundleMonths ? t("{{count}} months", { count: fan.bundleMonths }) : periodLabel(fan.period)} ·{" "}
              {fan.priceCents === 0 ? t("Free") : formatCents(fan.priceCents, i18n.language)}
            </dd>
          </>
        ) : null}
      </dl>
      <MessageButton username={fan.username} className="btn-secondary w-auto" />
    </li>
  );
}
