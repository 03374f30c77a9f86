import { useTranslation } from "react-i18next";
import { EmptyScreen } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { creatorsOnly } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export const meta = pageMeta((t) => [titleTag(t("Go Live"))]);

export const handle: ShellHandle = { rightColumn: "none" };

export const loader = creatorsOnly;

/** /live/start: a creator starts a live stream. */
export default function GoLivePage() {
  const { t } = useTranslation();
  return (
    <EmptyScreen
      screenTitle={t("Go Live")}
      icon="goLive"
      title={t("Go live to your fans")}
      text={t("Your followers are notified when you start, and they can chat and tip while you stream.")}
    />
  );
}
