import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { EmptyState, PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireCreator } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "New story · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "none" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  requireCreator(context, request);
  return null;
}

/** /stories/create: a creator adds a story. */
export default function Page() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("New story")} />
      <EmptyState
        icon="becomeCreator"
        title={t("Share a story")}
        text={t("Stories are photos or short videos that disappear after 24 hours. Your followers see them at the top of their feed.")}
      />
    </>
  );
}
