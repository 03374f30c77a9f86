import { useTranslation } from "react-i18next";
import { EmptyScreen } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { creatorsOnly } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export const meta = pageMeta((t) => [titleTag(t("New story"))]);

export const handle: ShellHandle = { rightColumn: "none" };

export const loader = creatorsOnly;

/** /stories/create: a creator adds a story. */
export default function CreateStoryPage() {
  const { t } = useTranslation();
  return (
    <EmptyScreen
      screenTitle={t("New story")}
      icon="becomeCreator"
      title={t("Share a story")}
      text={t("Stories are photos or short videos that disappear after 24 hours. Your followers see them at the top of their feed.")}
    />
  );
}
