import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { EmptyState, PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireCreator } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Go Live · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "none" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  requireCreator(context, request);
  return null;
}

/** /live/start: a creator starts a live stream. */
export default function Page() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("Go Live")} />
      <EmptyState
        icon="goLive"
        title={t("Go live to your fans")}
        text={t("Your followers are notified when you start, and they can chat and tip while you stream.")}
      />
    </>
  );
}
