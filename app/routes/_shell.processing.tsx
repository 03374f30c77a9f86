import type { MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { EmptyScreen } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { creatorsOnly } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Processing · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "search" };

export const loader = creatorsOnly;

/** /processing: a creator's uploads that are still being prepared. */
export default function ProcessingPage() {
  const { t } = useTranslation();
  return (
    <EmptyScreen
      screenTitle={t("Processing")}
      icon="dashboard"
      title={t("Nothing is processing")}
      text={t("Videos and photos you upload appear here while they are being prepared.")}
    />
  );
}
