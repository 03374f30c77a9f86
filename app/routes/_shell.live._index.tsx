import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { liveNowRead, recentlyEndedRead } from "@worker/domain/live/streams";
import { readTogether } from "@worker/domain/shared/reads";
import { EndedStreamCard, LiveNowCard } from "~/components/live/stream-list";
import { EmptyState, PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireViewer } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Live Streams"))]);

export const handle: ShellHandle = { rightColumn: "search" };

/** How often the open list asks again (viewer counts, streams starting and ending). */
const REFRESH_MS = 20_000;

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  const { db } = context.domain;
  const [live, ended] = await readTogether(db, [liveNowRead(db, user), recentlyEndedRead(db, user)]);
  return { live, ended, isCreator: user.role === "creator" };
}

/** /live: "Streaming right now" (creators the person subscribes to and follows first), then "Recently ended". */
export default function LiveStreamsPage() {
  const { t } = useTranslation();
  const { live, ended, isCreator } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [revalidator]);
  return (
    <>
      <PageHeader title={t("Live Streams")}>
        {isCreator ? (
          <Link to="/live/start" className="btn-primary w-auto shrink-0 text-sm">
            {t("Go Live")}
          </Link>
        ) : null}
      </PageHeader>
      <section aria-labelledby="streaming-now" className="p-4">
        <h2 id="streaming-now" className="text-lg font-semibold">
          {t("Streaming Right Now")}
        </h2>
        {live.length > 0 ? (
          <ul className="mt-2">
            {live.map((stream) => (
              <LiveNowCard key={stream.id} stream={stream} />
            ))}
          </ul>
        ) : (
          <EmptyState
            icon="live"
            title={t("Nobody is live right now")}
            text={t("When creators you follow go live, you will find them here and get a notification.")}
          />
        )}
      </section>
      {ended.length > 0 ? (
        <section aria-labelledby="recently-ended" className="p-4">
          <h2 id="recently-ended" className="text-lg font-semibold">
            {t("Recently ended")}
          </h2>
          <ul className="mt-2">
            {ended.map((stream) => (
              <EndedStreamCard key={stream.id} stream={stream} showCreator />
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
