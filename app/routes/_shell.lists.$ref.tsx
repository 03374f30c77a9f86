import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import {
  ListedFansQuerySchema,
  ListRefSchema,
  parseListRef,
  SPENDER_PERIODS,
  type ListedFan,
} from "@shared/contracts/fan-lists";
import { formatCents } from "@shared/money";
import { findFanList } from "@worker/domain/fan-lists/find-fan-list";
import { listListedFans } from "@worker/domain/fan-lists/list-listed-fans";
import { removeFanFromList } from "@worker/domain/fan-lists/remove-fan-from-list";
import { AppError } from "@worker/domain/shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { AddToList } from "~/components/fan-lists/add-to-list";
import { listedFanPageShape } from "~/components/fan-lists/fan-list-shapes";
import { useListName } from "~/components/fan-lists/list-name";
import { NameAndHandle } from "~/components/handle";
import { LoadMore } from "~/components/load-more-button";
import { LocalTime } from "~/components/local-time";
import { EmptyState, PageHeader } from "~/components/page";
import { IntentForm, fetcherError } from "~/components/profile/intent-form";
import { Avatar } from "~/components/shell/avatar";
import type { ShellHandle } from "~/components/shell/app-shell";
import { handleForm, readForm, requireCreator, type FormResult } from "~/lib/forms.server";
import { offlineAwareAction } from "~/lib/offline-aware-action";
import { useSession } from "~/lib/session";
import { usePagedList } from "~/lib/use-paged-list";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Lists"))]);

export const handle: ShellHandle = { rightColumn: "none" };

const notFound = () => new Response("Not found", { status: 404 });

export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  const ref = ListRefSchema.safeParse(params.ref);
  if (!ref.success) throw notFound();
  const url = new URL(request.url);
  // A search or position typed into the address that is not valid shows the list from its start.
  const query = ListedFansQuerySchema.safeParse({
    q: url.searchParams.get("q") ?? undefined,
    cursor: url.searchParams.get("cursor") ?? undefined,
  });
  const { q, cursor } = query.success ? query.data : { q: undefined, cursor: undefined };
  const list = parseListRef(ref.data);
  try {
    const custom = list.kind === "custom" ? await findFanList(context.domain.db, user, list.id) : null;
    const first = await listListedFans(context.domain.db, user, ref.data, { q, cursor });
    // Top spenders: the periods the creator may pick instead.
    const periods = list.kind === "top-spenders" ? SPENDER_PERIODS.map((period) => `top-spenders:${period}`) : [];
    return { ref: ref.data, name: custom?.name ?? null, listId: custom?.id ?? null, q: q ?? "", first, periods };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") throw notFound();
    throw error;
  }
}

/** Taking a fan out of this (custom) list. */
export async function action({ context, params, request }: ActionFunctionArgs) {
  const { user } = requireCreator(context, request);
  return handleForm(context, async () => {
    const fields = await readForm(request);
    const ref = ListRefSchema.safeParse(params.ref);
    const list = ref.success ? parseListRef(ref.data) : null;
    if (fields.intent !== "remove" || list?.kind !== "custom" || !fields.username)
      throw new AppError("validation", INVALID_VALUE);
    await removeFanFromList(context.domain.db, user, list.id, fields.username.toLowerCase());
    return { ok: true } satisfies FormResult;
  });
}

export const clientAction = offlineAwareAction(() => false);

/** usePagedList keys items by `id`: a fan is listed once. */
const withIds = (fans: ListedFan[]) => fans.map((fan) => ({ ...fan, id: fan.userId }));

/** /lists/<ref>: one list's fans with what they spent and when they were last active, searchable, paged. */
export default function ListPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const listName = useListName();
  const { ref, name, listId, q, first, periods } = useLoaderData<typeof loader>();
  const title = listName(ref, name);
  const firstItems = useMemo(() => withIds(first.fans), [first.fans]);
  const list = usePagedList({ items: firstItems, nextCursor: first.nextCursor }, async (cursor: string) => {
    const search = new URLSearchParams(q ? { q, cursor } : { cursor });
    const page = await api.get(`/lists/${ref}/fans?${search.toString()}`, listedFanPageShape);
    return { items: withIds(page.fans), nextCursor: page.nextCursor };
  });
  return (
    <>
      <PageHeader title={title}>
        <Link to="/lists" className="link text-sm">
          {t("All lists")}
        </Link>
      </PageHeader>
      {periods.length > 0 ? (
        <nav aria-label={t("Period")} className="flex flex-wrap gap-2 px-4 pt-4">
          {periods.map((period) => (
            <Link
              key={period}
              to={`/lists/${period}`}
              aria-current={period === ref ? "page" : undefined}
              className={`rounded-full px-3 py-1.5 text-sm ${period === ref ? "bg-slate-900 text-white dark:bg-white dark:text-slate-900" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`}
            >
              {listName(period, null)}
            </Link>
          ))}
        </nav>
      ) : null}
      <Form method="get" role="search" className="flex items-end gap-2 p-4">
        <label className="min-w-0 flex-1 space-y-1">
          <span className="block text-sm font-medium">{t("Search fans by username or name")}</span>
          <input type="search" name="q" defaultValue={q} maxLength={60} className="input" />
        </label>
        <button type="submit" className="btn-secondary w-auto">
          {t("Search")}
        </button>
      </Form>
      {list.items.length === 0 ? (
        <EmptyState
          icon="profile"
          title={q ? t("No fan matches this search") : t("No fans in this list")}
          text={
            listId !== null
              ? t("Add fans from their profile, a chat or another list.")
              : t("Fans appear here as soon as they fit the list.")
          }
        />
      ) : (
        <ul aria-label={title} className="divide-y divide-slate-200 px-4 dark:divide-slate-800">
          {list.items.map((fan) => (
            <FanLine key={fan.id} fan={fan} listId={listId} />
          ))}
        </ul>
      )}
      <LoadMore list={list} />
    </>
  );
}

function FanLine({ fan, listId }: { fan: ListedFan; listId: number | null }) {
  const { t, i18n } = useTranslation();
  const remove = useFetcher<FormResult>();
  const error = fetcherError(remove);
  return (
    <li data-testid="listed-fan" className="flex flex-wrap items-center gap-3 py-3">
      <Link to={`/lists/fan/${fan.username}`} className="flex min-w-0 flex-1 items-center gap-3">
        <Avatar url={fan.avatarUrl} name={fan.name} />
        <span className="min-w-0">
          <NameAndHandle name={fan.name} username={fan.username} />
        </span>
      </Link>
      <dl className="grid grid-cols-[auto_auto] gap-x-3 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">{t("Spent")}</dt>
        <dd data-testid="spent">{formatCents(fan.spentCents, i18n.language)}</dd>
        <dt className="text-slate-600 dark:text-slate-400">{t("Last active")}</dt>
        <dd>{fan.lastActiveAt ? <LocalTime iso={fan.lastActiveAt} /> : t("Not recently")}</dd>
      </dl>
      <div className="flex gap-2">
        <AddToList username={fan.username} />
        {listId !== null ? (
          <IntentForm fetcher={remove} intent="remove" fields={{ username: fan.username }}>
            <button type="submit" className="btn-secondary w-auto" disabled={remove.state !== "idle"}>
              {t("Remove")}
              <span className="sr-only"> {fan.name}</span>
            </button>
          </IntentForm>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </li>
  );
}
