import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { EmptyState, PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireViewer } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Bookmarks · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "search" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  requireViewer(context, request);
  return null;
}

/** /bookmarks: the posts the user saved. Saving posts comes with the timeline. */
export default function Page() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("Bookmarks")} />
      <EmptyState
        icon="bookmarks"
        title={t("No bookmarks yet")}
        text={t("Tap the bookmark on any post to keep it here. Bookmarked posts stay readable offline.")}
        action={{ to: "/home", label: t("Go to your feed") }}
      />
    </>
  );
}
