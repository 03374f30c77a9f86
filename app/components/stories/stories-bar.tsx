import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { StoriesBarItem } from "@shared/contracts/stories";
import { Avatar, storyRingClass } from "~/components/shell/avatar";

export interface LiveNowItem {
  id: number;
  title: string;
  creator: { username: string; name: string; avatarUrl: string };
}

function TrayItem({
  to,
  ring,
  label,
  note,
  children,
  ...data
}: {
  to: string;
  ring: string;
  label: string;
  /** Said to screen readers after the name ("new stories"). */
  note?: string;
  children: ReactNode;
  [data: `data-${string}`]: string | number;
}) {
  return (
    <Link to={to} className="flex w-16 shrink-0 flex-col items-center gap-1 text-center text-xs" {...data}>
      <span className={`relative ${ring}`}>{children}</span>
      <span dir="auto" className="w-full truncate-text">
        {label}
        {note ? <span className="sr-only"> {note}</span> : null}
      </span>
    </Link>
  );
}

/**
 * Home's tray (small: it ships with every first /home): who the person may watch on air first (a red ring and
 * "Live"), then one's own stories ("Your story", or "Add story" for a creator without one), then the creators
 * followed with stories, unseen first. A story opens the viewer at that creator; a live one, the stream.
 */
export function StoriesBar({
  items,
  live,
  selfId,
  isCreator,
}: {
  items: StoriesBarItem[];
  live: LiveNowItem[];
  selfId: number;
  isCreator: boolean;
}) {
  const { t } = useTranslation();
  if (items.length === 0 && live.length === 0 && !isCreator) return null;
  return (
    <nav
      aria-label={t("Stories")}
      className="flex gap-3 overflow-x-auto border-b border-slate-200 p-4 dark:border-slate-800"
    >
      {live.map(({ id, creator }) => (
        <TrayItem
          key={`l${id}`}
          to={`/live/${id}`}
          ring="rounded-full p-0.5 ring-2 ring-red-600"
          label={creator.name}
          data-home-live={id}
        >
          <Avatar url={creator.avatarUrl} name={creator.name} size="h-12 w-12" />
          <span className="absolute -bottom-1 left-1/2 max-w-[4rem] -translate-x-1/2 truncate rounded bg-red-600 px-1 text-[10px] font-bold uppercase leading-4 text-white">
            {t("Live")}
          </span>
        </TrayItem>
      ))}
      {isCreator && items[0]?.creator.id !== selfId ? (
        <TrayItem
          to="/stories/create"
          ring="flex h-14 w-14 items-center justify-center rounded-full border-2 border-dashed border-slate-400 text-2xl"
          label={t("Add story")}
        >
          +
        </TrayItem>
      ) : null}
      {items.map(({ creator, unseen }) => (
        <TrayItem
          key={creator.id}
          to={`/stories?user=${creator.username}`}
          ring={storyRingClass(unseen > 0)}
          label={creator.id === selfId ? t("Your story") : creator.name}
          note={unseen > 0 ? t("New stories") : undefined}
          data-story-ring={unseen > 0 ? "unseen" : "seen"}
        >
          <Avatar url={creator.avatarUrl} name={creator.name} size="h-12 w-12" />
        </TrayItem>
      ))}
    </nav>
  );
}
