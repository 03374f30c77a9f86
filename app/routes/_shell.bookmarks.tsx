import type { MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { EmptyScreen } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { signedInOnly } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Bookmarks · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "search" };

export const loader = signedInOnly;

/** /bookmarks: the posts the user saved. Saving posts comes with the timeline. */
export default function BookmarksPage() {
  const { t } = useTranslation();
  return (
    <EmptyScreen
      screenTitle={t("Bookmarks")}
      icon="bookmarks"
      title={t("No bookmarks yet")}
      text={t("Tap the bookmark on any post to keep it here. Bookmarked posts stay readable offline.")}
      action={{ to: "/home", label: t("Go to your feed") }}
    />
  );
}
