import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { EmptyState, PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireCreator } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Processing · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "search" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  requireCreator(context, request);
  return null;
}

/** /processing: a creator's uploads that are still being prepared. */
export default function Page() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("Processing")} />
      <EmptyState
        icon="dashboard"
        title={t("Nothing is processing")}
        text={t("Videos and photos you upload appear here while they are being prepared.")}
      />
    </>
  );
}
