import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { FanDetail } from "@shared/contracts/fan-lists";
import { idText } from "@shared/contracts/text";
import { formatCents } from "@shared/money";
import { INVALID_VALUE } from "@shared/messages";
import { addFanToList } from "@worker/domain/fan-lists/add-fan-to-list";
import { getFanDetail } from "@worker/domain/fan-lists/get-fan-detail";
import { listFanMemberships } from "@worker/domain/fan-lists/list-fan-memberships";
import { removeFanFromList } from "@worker/domain/fan-lists/remove-fan-from-list";
import { AppError } from "@worker/domain/shared/errors";
import { parseOrThrow } from "@worker/domain/shared/validation";
import { NameAndHandle } from "~/components/handle";
import { LocalTime } from "~/components/local-time";
import { PageHeader } from "~/components/page";
import { IntentForm, fetcherError } from "~/components/profile/intent-form";
import { usePeriodLabel } from "~/components/profile/period-label";
import { Avatar } from "~/components/shell/avatar";
import type { ShellHandle } from "~/components/shell/app-shell";
import { handleForm, readForm, requireCreator, type FormResult } from "~/lib/forms.server";
import { offlineAwareAction } from "~/lib/offline-aware-action";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Fan"))]);

export const handle: ShellHandle = { rightColumn: "none" };

const notFound = () => new Response("Not found", { status: 404 });

export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  const username = (params.username ?? "").toLowerCase();
  try {
    const [fan, memberships] = await Promise.all([
      getFanDetail(context.domain.db, user, username),
      listFanMemberships(context.domain.db, user, username),
    ]);
    return { fan, lists: memberships.lists };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") throw notFound();
    throw error;
  }
}

/** Putting the fan in one of the creator's lists, or taking them out (`intent`): "Add to list" without JavaScript. */
export async function action({ context, params, request }: ActionFunctionArgs) {
  const { user } = requireCreator(context, request);
  const username = (params.username ?? "").toLowerCase();
  return handleForm(context, async () => {
    const fields = await readForm(request);
    const listId = parseOrThrow(idText, fields.listId ?? "");
    if (fields.intent === "add") await addFanToList(context.domain.db, user, listId, username);
    else if (fields.intent === "remove") await removeFanFromList(context.domain.db, user, listId, username);
    else throw new AppError("validation", INVALID_VALUE);
    return { ok: true } satisfies FormResult;
  });
}

export const clientAction = offlineAwareAction(() => false);

/** /lists/fan/<username>: one fan as their creator sees them: subscription, spending, chat and lists. */
export default function FanPage() {
  const { t } = useTranslation();
  const { fan, lists } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={fan.name}>
        <Link to="/lists" className="link text-sm">
          {t("All lists")}
        </Link>
      </PageHeader>
      <div className="flex flex-wrap items-center gap-3 p-4">
        <Link to={`/${fan.username}`} className="flex min-w-0 flex-1 items-center gap-3">
          <Avatar url={fan.avatarUrl} name={fan.name} />
          <span className="min-w-0">
            <NameAndHandle name={fan.name} username={fan.username} />
          </span>
        </Link>
        {fan.conversationId !== null ? (
          <Link to={`/messages/${fan.conversationId}`} className="btn-secondary w-auto">
            {t("Open chat")}
          </Link>
        ) : null}
      </div>
      <Subscription fan={fan} />
      <Spending fan={fan} />
      <section aria-labelledby="fan-lists" className="space-y-2 border-t border-slate-200 p-4 dark:border-slate-800">
        <h2 id="fan-lists" className="text-lg font-semibold">
          {t("Your lists")}
        </h2>
        {lists.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            <Link to="/lists" className="link">
              {t("Make a list")}
            </Link>
          </p>
        ) : (
          <ul className="space-y-2">
            {lists.map((list) => (
              <MembershipLine key={list.id} list={list} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function Subscription({ fan }: { fan: FanDetail }) {
  const { t, i18n } = useTranslation();
  const periodLabel = usePeriodLabel();
  const subscription = fan.subscription;
  const statusLabel = { active: t("Active"), cancelled: t("Cancelled"), expired: t("Expired") };
  return (
    <section
      aria-labelledby="fan-subscription"
      className="space-y-2 border-t border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="fan-subscription" className="text-lg font-semibold">
        {t("Subscription")}
      </h2>
      {subscription === null ? (
        <p>{fan.following ? t("Follows you; never subscribed.") : t("Never subscribed.")}</p>
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-600 dark:text-slate-400">{t("Status")}</dt>
          <dd data-testid="subscription-status">{statusLabel[subscription.status]}</dd>
          <dt className="text-slate-600 dark:text-slate-400">{t("Plan")}</dt>
          <dd>
            {subscription.bundleMonths
              ? t("{{count}} months", { count: subscription.bundleMonths })
              : periodLabel(subscription.period)}{" "}
            · {subscription.priceCents === 0 ? t("Free") : formatCents(subscription.priceCents, i18n.language)}
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">{t("Since")}</dt>
          <dd>
            <LocalTime iso={subscription.startedAt} dateOnly />
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">
            {subscription.status === "active" ? t("Renews") : t("Ends")}
          </dt>
          <dd>
            <LocalTime iso={subscription.currentPeriodEnd} dateOnly />
          </dd>
        </dl>
      )}
    </section>
  );
}

function Spending({ fan }: { fan: FanDetail }) {
  const { t, i18n } = useTranslation();
  const money = (cents: number) => formatCents(cents, i18n.language);
  const { spending } = fan;
  const rows: [string, number][] = [
    [t("Subscriptions"), spending.subscriptionsCents],
    [t("Tips"), spending.tipsCents],
    [t("Posts"), spending.postsCents],
    [t("Messages"), spending.messagesCents],
    [t("Live streams"), spending.liveCents],
  ];
  return (
    <section aria-labelledby="fan-spending" className="space-y-2 border-t border-slate-200 p-4 dark:border-slate-800">
      <h2 id="fan-spending" className="text-lg font-semibold">
        {t("Spending with you")}
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([label, cents]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
            <dd>{money(cents)}</dd>
          </div>
        ))}
        <dt className="font-semibold">{t("Total")}</dt>
        <dd data-testid="spent-total" className="font-semibold">
          {money(spending.totalCents)}
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">{t("Last active")}</dt>
        <dd>{fan.lastActiveAt ? <LocalTime iso={fan.lastActiveAt} /> : t("Not recently")}</dd>
      </dl>
    </section>
  );
}

function MembershipLine({ list }: { list: { id: number; name: string; member: boolean } }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<FormResult>();
  const error = fetcherError(fetcher);
  return (
    <li className="flex flex-wrap items-center justify-between gap-2">
      <span dir="auto" className="min-w-0 truncate">
        {list.name}
      </span>
      <IntentForm fetcher={fetcher} intent={list.member ? "remove" : "add"} fields={{ listId: list.id }}>
        <button type="submit" className="btn-secondary w-auto" disabled={fetcher.state !== "idle"}>
          {list.member ? t("Remove") : t("Add")}
          <span className="sr-only"> {list.name}</span>
        </button>
      </IntentForm>
      {error ? (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </li>
  );
}
