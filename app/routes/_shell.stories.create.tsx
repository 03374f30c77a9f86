import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { StoryComposer } from "~/components/stories/story-composer";
import { creatorsOnly } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";
import { useTranslation } from "react-i18next";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("New story"))]);

export const handle: ShellHandle = { rightColumn: "none" };

export const loader = creatorsOnly;

/** /stories/create: a creator adds a story (members are sent to Become a creator). */
export default function CreateStoryPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("New story")} />
      <StoryComposer />
    </>
  );
}
