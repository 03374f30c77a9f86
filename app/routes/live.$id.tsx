import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { presentLiveStream } from "@worker/domain/live/streams";
import { audienceAdmits, findLiveAccess } from "@worker/domain/policies/live";
import { parseIdText } from "@worker/domain/shared/validation";
import { liveMediaView } from "@worker/live/transports";
import { WatchScreen } from "~/components/live/watch-screen";
import { requireViewer } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Live"))]);

/**
 * /live/{id}: the full-screen stream (spec §2: no layout). A stream whose audience shuts the viewer out is "not
 * found", like one that does not exist; a paid stream not entered yet goes to its entry step (/live/{id}/join);
 * the creator's own live stream is their studio (/live/start). Who may watch gets the media addresses with the
 * page, so the video starts without another round trip.
 */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  const id = parseIdText(params.id ?? "");
  const access = id === null ? undefined : (await findLiveAccess(context.domain.db, user, [id])).get(id);
  if (!access || !audienceAdmits(access.stream.audience, access.facts))
    return data({ stream: null, media: null, selfId: user.id }, { status: 404 });
  const stream = presentLiveStream(access.stream, access.facts);
  if (stream.status === "live" && stream.viewer.isCreator) throw redirect("/live/start");
  if (stream.status === "live" && !stream.viewer.hasEntry) throw redirect(`/live/${stream.id}/join`);
  const media = stream.viewer.canWatch ? liveMediaView(context.domain.config, access.stream, false) : null;
  return { stream, media, selfId: user.id };
}

export default function LiveStreamPage() {
  const { t } = useTranslation();
  const { stream, media, selfId } = useLoaderData<typeof loader>();
  if (stream) return <WatchScreen key={stream.id} stream={stream} media={media} selfId={selfId} />;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-950 p-6 text-center text-white">
      <h1 className="text-2xl font-bold">{t("This live stream does not exist.")}</h1>
      <p className="max-w-sm text-slate-300">{t("It has ended or never started. See who is streaming right now.")}</p>
      <Link to="/live" className="btn-primary w-auto">
        {t("Live Streams")}
      </Link>
    </main>
  );
}
