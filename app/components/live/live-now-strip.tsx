import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/shell/avatar";

export interface LiveNowItem {
  id: number;
  title: string;
  creator: { username: string; name: string; avatarUrl: string };
}

/** Home's "Live now": who the person may watch is on air, a ringed avatar each (small: it ships with /home). */
export function LiveNowStrip({ streams }: { streams: LiveNowItem[] }) {
  const { t } = useTranslation();
  if (streams.length === 0) return null;
  return (
    <nav aria-label={t("Live now")} className="flex gap-4 overflow-x-auto border-b border-slate-200 p-4 dark:border-slate-800">
      {streams.map((stream) => (
        <Link key={stream.id} to={`/live/${stream.id}`} className="flex w-20 shrink-0 flex-col items-center gap-1 text-center text-xs" title={stream.title} data-home-live={stream.id}>
          <span className="relative rounded-full p-0.5 ring-2 ring-red-600">
            <Avatar url={stream.creator.avatarUrl} name={stream.creator.name} size="h-14 w-14" />
            <span className="absolute -bottom-1 left-1/2 -translate-x-1/2 rounded bg-red-600 px-1 text-[10px] font-bold uppercase text-white">{t("Live")}</span>
          </span>
          <span className="w-full truncate">{stream.creator.name}</span>
        </Link>
      ))}
    </nav>
  );
}
