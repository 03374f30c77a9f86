import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FanListBodySchema, type FanListSummary } from "@shared/contracts/fan-lists";
import { idText } from "@shared/contracts/text";
import { INVALID_VALUE } from "@shared/messages";
import { createFanList } from "@worker/domain/fan-lists/create-fan-list";
import { deleteFanList } from "@worker/domain/fan-lists/delete-fan-list";
import { listFanLists } from "@worker/domain/fan-lists/list-fan-lists";
import { renameFanList } from "@worker/domain/fan-lists/rename-fan-list";
import { AppError } from "@worker/domain/shared/errors";
import { parseOrThrow } from "@worker/domain/shared/validation";
import { Field } from "~/components/forms";
import { IntentForm, fetcherError } from "~/components/profile/intent-form";
import { PageHeader } from "~/components/page";
import { useListName } from "~/components/fan-lists/list-name";
import type { ShellHandle } from "~/components/shell/app-shell";
import { handleForm, readForm, requireCreator, type FormResult } from "~/lib/forms.server";
import { offlineAwareAction } from "~/lib/offline-aware-action";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Lists"))]);

export const handle: ShellHandle = { rightColumn: "none" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  return await listFanLists(context.domain.db, user);
}

const listIdOf = (fields: Record<string, string>) => parseOrThrow(idText, fields.listId ?? "");

/** Making, renaming and deleting a custom list (`intent`). */
export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireCreator(context, request);
  const { db } = context.domain;
  return handleForm(context, async () => {
    const fields = await readForm(request);
    if (fields.intent === "create") await createFanList(db, user, parseOrThrow(FanListBodySchema, fields));
    else if (fields.intent === "rename")
      await renameFanList(db, user, listIdOf(fields), parseOrThrow(FanListBodySchema, fields));
    else if (fields.intent === "delete") await deleteFanList(db, user, listIdOf(fields));
    else throw new AppError("validation", INVALID_VALUE);
    return { ok: true } satisfies FormResult;
  });
}

export const clientAction = offlineAwareAction(() => false);

/** /lists: the lists the system keeps and the creator's own, with how many fans each holds. */
export default function ListsPage() {
  const { t } = useTranslation();
  const { lists } = useLoaderData<typeof loader>();
  const system = lists.filter((list) => list.kind === "system");
  const custom = lists.filter((list) => list.kind === "custom");
  return (
    <>
      <PageHeader title={t("Lists")}>
        <Link to="/dashboard/fans" className="link text-sm">
          {t("Fans")}
        </Link>
      </PageHeader>
      <section aria-labelledby="system-lists" className="space-y-2 p-4">
        <h2 id="system-lists" className="text-lg font-semibold">
          {t("Kept for you")}
        </h2>
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {system.map((list) => (
            <ListLine key={list.ref} list={list} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="custom-lists" className="space-y-3 border-t border-slate-200 p-4 dark:border-slate-800">
        <h2 id="custom-lists" className="text-lg font-semibold">
          {t("Your lists")}
        </h2>
        <CreateListForm />
        {custom.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t("Make a list, then add fans to it from their profile, a chat or any list.")}
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {custom.map((list) => (
              <ListLine key={list.ref} list={list} editable />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function ListLine({ list, editable = false }: { list: FanListSummary; editable?: boolean }) {
  const { t } = useTranslation();
  const listName = useListName();
  const name = listName(list.ref, list.name);
  return (
    <li data-testid="list-line" className="space-y-2 py-3">
      <div className="flex items-center justify-between gap-3">
        <Link to={`/lists/${list.ref}`} className="link min-w-0 truncate font-medium" dir="auto">
          {name}
        </Link>
        <span className="shrink-0 text-sm text-slate-600 dark:text-slate-400">
          {t("Fans: {{count}}", { count: list.count })}
        </span>
      </div>
      {editable ? <EditList id={Number(list.ref.replace("custom:", ""))} name={name} /> : null}
    </li>
  );
}

function CreateListForm() {
  const { t } = useTranslation();
  const fetcher = useFetcher<FormResult>();
  const errors = fetcher.data?.ok === false ? fetcher.data.errors : {};
  const error = fetcherError(fetcher);
  // A new field once a list is made: the name typed is not left to be sent twice.
  const [round, setRound] = useState(0);
  const made = fetcher.state === "idle" && fetcher.data?.ok === true ? fetcher.data : null;
  useEffect(() => {
    if (made) setRound((last) => last + 1);
  }, [made]);
  return (
    <IntentForm fetcher={fetcher} intent="create" className="flex flex-wrap items-end gap-2">
      <div className="min-w-0 flex-1">
        <Field key={round} label={t("New list")} name="name" maxLength={50} required errors={errors.name} />
      </div>
      <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
        {t("Create list")}
      </button>
      {error && !errors.name ? (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </IntentForm>
  );
}

function EditList({ id, name }: { id: number; name: string }) {
  const { t } = useTranslation();
  const rename = useFetcher<FormResult>();
  const remove = useFetcher<FormResult>();
  const error = fetcherError(rename) ?? fetcherError(remove);
  return (
    <div className="flex flex-wrap items-end gap-2">
      <IntentForm fetcher={rename} intent="rename" fields={{ listId: id }} className="flex flex-1 items-end gap-2">
        <div className="min-w-0 flex-1">
          <Field label={t("Name of {{name}}", { name })} name="name" defaultValue={name} maxLength={50} required />
        </div>
        <button type="submit" className="btn-secondary w-auto" disabled={rename.state !== "idle"}>
          {t("Rename")}
        </button>
      </IntentForm>
      <IntentForm fetcher={remove} intent="delete" fields={{ listId: id }}>
        <button type="submit" className="btn-secondary w-auto" disabled={remove.state !== "idle"}>
          {/* The list's name is heard, not shown: the visible word stays the start of the button's name. */}
          {t("Delete")}
          <span className="sr-only"> {name}</span>
        </button>
      </IntentForm>
      {error ? (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
