import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { LiveStreamView } from "@shared/contracts/live";
import { formatCents } from "@shared/money";
import { LocalTime } from "~/components/local-time";
import { Avatar } from "~/components/shell/avatar";
import { formatElapsed, LiveMeta } from "~/components/live/live-chat";
import { Handle } from "~/components/handle";

/** One stream on air in "Streaming right now": the creator, the title, viewers, time on air, the entry price. */
export function LiveNowCard({ stream }: { stream: LiveStreamView }) {
  const { t, i18n } = useTranslation();
  return (
    <li>
      <Link
        to={`/live/${stream.id}`}
        className="flex items-center gap-3 rounded-2xl p-3 hover:bg-slate-100 dark:hover:bg-slate-900"
        data-live-stream={stream.id}
      >
        <span className="relative shrink-0 rounded-full p-0.5 ring-2 ring-red-600">
          <Avatar url={stream.creator.avatarUrl} name={stream.creator.name} size="h-14 w-14" />
        </span>
        <span className="min-w-0 flex-1">
          <span dir="auto" className="block truncate-text font-semibold">
            {stream.title}
          </span>
          <span dir="auto" className="block truncate-text text-sm text-slate-600 dark:text-slate-300">
            {stream.creator.name} · <Handle username={stream.creator.username} />
          </span>
          <LiveMeta viewers={stream.viewers} startedAt={stream.startedAt} ended={false} />
        </span>
        {stream.priceCents > 0 && !stream.viewer.hasEntry ? (
          <span className="shrink-0 rounded-full bg-amber-100 px-2 py-1 text-sm font-semibold text-amber-900">
            {formatCents(stream.priceCents, i18n.language)}
          </span>
        ) : null}
        {stream.viewer.isCreator ? <span className="shrink-0 text-sm">{t("Your stream")}</span> : null}
      </Link>
    </li>
  );
}

/** A stream that ended: when, for how long, its peak viewers. */
export function EndedStreamCard({ stream, showCreator }: { stream: LiveStreamView; showCreator: boolean }) {
  const { t } = useTranslation();
  const duration = stream.endedAt ? formatElapsed(Date.parse(stream.endedAt) - Date.parse(stream.startedAt)) : "";
  return (
    <li>
      <Link
        to={`/live/${stream.id}`}
        className="flex items-center gap-3 rounded-2xl p-3 hover:bg-slate-100 dark:hover:bg-slate-900"
        data-ended-stream={stream.id}
      >
        {showCreator ? <Avatar url={stream.creator.avatarUrl} name={stream.creator.name} size="h-12 w-12" /> : null}
        <span className="min-w-0 flex-1">
          <span dir="auto" className="block truncate-text font-semibold">
            {stream.title}
          </span>
          <span className="block text-sm text-slate-600 dark:text-slate-300">
            {showCreator ? `${stream.creator.name} · ` : null}
            <LocalTime iso={stream.startedAt} /> · {t("{{duration}} long", { duration })} ·{" "}
            {t("Peak viewers: {{count}}", { count: stream.peakViewers })}
          </span>
        </span>
      </Link>
    </li>
  );
}

/** The studio's history: the creator's last streams. */
export function PastStreams({ streams }: { streams: LiveStreamView[] }) {
  const { t } = useTranslation();
  if (streams.length === 0) return null;
  return (
    <section aria-labelledby="past-streams" className="p-4">
      <h2 id="past-streams" className="text-lg font-semibold">
        {t("Past streams")}
      </h2>
      <ul className="mt-2">
        {streams.map((stream) => (
          <EndedStreamCard key={stream.id} stream={stream} showCreator={false} />
        ))}
      </ul>
    </section>
  );
}
