import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { EmptyState, PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireCreator } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Scheduled posts · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "search" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  requireCreator(context, request);
  return null;
}

/** /scheduled: a creator's posts waiting for their publication time. */
export default function Page() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("Scheduled posts")} />
      <EmptyState
        icon="dashboard"
        title={t("Nothing scheduled")}
        text={t("Posts you schedule for later wait here until they are published.")}
      />
    </>
  );
}
