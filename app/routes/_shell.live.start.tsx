import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { currentLiveAccessRead, endedStreamsOfRead, presentLiveStream } from "@worker/domain/live/streams";
import { readTogether } from "@worker/domain/shared/reads";
import { liveMediaView } from "@worker/live/transports";
import { PastStreams } from "~/components/live/stream-list";
import { Studio } from "~/components/live/studio";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireCreator } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Go Live"))]);

export const handle: ShellHandle = { rightColumn: "none" };

/**
 * /live/start: a creator's studio (members are sent to Become a creator). A stream still live (the tab was
 * reloaded) comes back on air with its publish address; the creator's past streams are listed below.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  const { db } = context.domain;
  const [current, past] = await readTogether(db, [
    currentLiveAccessRead(db, user),
    endedStreamsOfRead(db, user, user.id, 5),
  ]);
  return {
    current: current ? presentLiveStream(current.stream, current.facts) : null,
    media: current ? liveMediaView(context.domain.config, current.stream, true) : null,
    past,
    selfId: user.id,
  };
}

export default function GoLivePage() {
  const { t } = useTranslation();
  const { current, media, past, selfId } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Go Live")} />
      <Studio current={current} media={media} selfId={selfId} />
      <PastStreams streams={past} />
    </>
  );
}
