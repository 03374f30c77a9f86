import type { MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { EmptyScreen } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { creatorsOnly } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Scheduled posts · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "search" };

export const loader = creatorsOnly;

/** /scheduled: a creator's posts waiting for their publication time. */
export default function ScheduledPage() {
  const { t } = useTranslation();
  return (
    <EmptyScreen
      screenTitle={t("Scheduled posts")}
      icon="dashboard"
      title={t("Nothing scheduled")}
      text={t("Posts you schedule for later wait here until they are published.")}
    />
  );
}
