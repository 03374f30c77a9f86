import { useTranslation } from "react-i18next";
import { EmptyState, PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { signedInOnly } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export const meta = pageMeta((t) => [titleTag(t("Live Streams"))]);

export const handle: ShellHandle = { rightColumn: "search" };

export const loader = signedInOnly;

/** /live: the "Streaming Right Now" list. */
export default function LiveStreamsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("Live Streams")} />
      <section aria-labelledby="streaming-now" className="p-4">
        <h2 id="streaming-now" className="text-lg font-semibold">
          {t("Streaming Right Now")}
        </h2>
        <EmptyState icon="live" title={t("Nobody is live right now")} text={t("When creators you follow go live, you will find them here and get a notification.")} />
      </section>
    </>
  );
}
