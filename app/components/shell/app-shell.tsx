import { useLocation, useMatches, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "~/components/spinner";
import { isInConversation } from "~/lib/navigation";
import { BottomNav } from "~/components/shell/bottom-nav";
import { Sidebar, type ShellViewer } from "~/components/shell/sidebar";
import { SuggestedProfiles } from "~/components/shell/suggested-profiles";
import { UserSearch } from "~/components/shell/user-search";
import { OutboxTray } from "~/components/outbox-tray";

/** What the right column holds on a route (spec §2 table), declared by each route's `handle.rightColumn`. */
export type RightColumn = "search-and-suggested" | "search" | "empty" | "none";

export interface ShellHandle {
  rightColumn: RightColumn;
}

function useRightColumn(): RightColumn {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]!.handle as Partial<ShellHandle> | undefined;
    if (handle?.rightColumn) return handle.rightColumn;
  }
  return "none";
}

/**
 * The layout of spec §2. Up to 1024 px: content and a bottom bar. From 1025 px: icon sidebar, content and right
 * column on a 12-column grid (1 + 8 + 3, or 1 + 11). From 1280 px: labelled sidebar 2/12, content 7/12, right
 * column 3/12 (content 10/12 without it). Everything is CSS, so the server render is already right.
 */
export function AppShell({ viewer, children }: { viewer: ShellViewer; children: ReactNode }) {
  const { t } = useTranslation();
  const rightColumn = useRightColumn();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const hasRightColumn = rightColumn !== "none";
  // Inside a conversation there is no bottom bar to keep clear of: the thread fills the height.
  const bottomBarRoom = isInConversation(pathname) ? "" : "pb-20";
  return (
    <div className="mx-auto min-h-screen max-w-screen-2xl desk:grid desk:grid-cols-12 desk:gap-4 desk:px-2">
      <a
        href="#content"
        className="sr-only z-50 rounded bg-white px-3 py-2 focus:not-sr-only focus:fixed focus:start-2 focus:top-2 dark:bg-slate-900"
      >
        {t("Skip to content")}
      </a>
      <header data-shell="sidebar" className="sticky top-0 hidden h-screen desk:col-span-1 desk:block wide:col-span-2">
        <Sidebar viewer={viewer} />
      </header>
      <main
        id="content"
        data-shell="content"
        className={`relative min-w-0 ${bottomBarRoom} desk:border-x desk:border-slate-200 desk:pb-0 desk:dark:border-slate-800 ${hasRightColumn ? "desk:col-span-8 wide:col-span-7" : "desk:col-span-11 wide:col-span-10"}`}
      >
        {navigation.state === "loading" ? (
          <div className="absolute inset-x-0 top-0 z-20 flex justify-center bg-white/70 py-8 dark:bg-slate-950/70">
            <Spinner label={t("Loading…")} />
          </div>
        ) : null}
        <OutboxTray />
        {children}
      </main>
      {hasRightColumn ? (
        <div
          data-shell="right-column"
          className="sticky top-0 hidden h-screen overflow-y-auto py-4 desk:col-span-3 desk:block"
        >
          {rightColumn !== "empty" ? (
            <aside aria-label={t("Search and suggestions")} className="space-y-4">
              <UserSearch />
              {rightColumn === "search-and-suggested" ? <SuggestedProfiles /> : null}
            </aside>
          ) : null}
        </div>
      ) : null}
      <BottomNav viewer={viewer} />
    </div>
  );
}
