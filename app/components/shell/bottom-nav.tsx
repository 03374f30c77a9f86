import { Link, NavLink, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BOTTOM_BAR_KEYS, bottomBarMenuEntries, isInConversation, sidebarEntries } from "~/lib/navigation";
import { Avatar } from "~/components/shell/avatar";
import { NavBadge } from "~/components/shell/badge";
import { Icon } from "~/components/shell/icons";
import { useMenuItems, useNavLabels } from "~/components/shell/labels";
import { MenuButton } from "~/components/shell/menu";
import type { ShellViewer } from "~/components/shell/sidebar";

/**
 * Mobile navigation (width ≤ 1024 px, spec §2): the four most used entries, and a menu with the rest of the
 * sidebar and the avatar menu. Hidden inside a conversation, where the composer needs the space.
 */
export function BottomNav({ viewer }: { viewer: ShellViewer }) {
  const { t } = useTranslation();
  const labels = useNavLabels();
  const { pathname } = useLocation();
  const entries = sidebarEntries(viewer);
  const menuItems = useMenuItems(bottomBarMenuEntries(viewer));
  if (isInConversation(pathname)) return null;
  return (
    <nav
      aria-label={t("Main")}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur dark:border-slate-800 dark:bg-slate-950/95 desk:hidden"
    >
      <ul className="mx-auto flex max-w-xl items-center justify-around">
        {entries
          .filter((entry) => BOTTOM_BAR_KEYS.has(entry.key))
          .map((entry) => (
            <li key={entry.key}>
              <NavLink
                to={entry.to}
                end={entry.to === "/"}
                data-nav={entry.key}
                className="relative flex h-14 w-14 items-center justify-center"
              >
                <span className="relative">
                  <Icon name={entry.key} />
                  <span className="sr-only">{labels[entry.key]}</span>
                  <NavBadge entry={entry.key} />
                </span>
              </NavLink>
            </li>
          ))}
        <li>
          {viewer.isAuth ? (
            <MenuButton
              label={t("Account menu")}
              items={menuItems}
              placement="above-end"
              buttonClassName="flex h-14 w-14 items-center justify-center"
            >
              <span className="relative">
                <Avatar url={viewer.avatarUrl} name={viewer.name || viewer.username} size="h-8 w-8" />
                <NavBadge entry="wallet" />
              </span>
            </MenuButton>
          ) : (
            <Link
              to={`/login?redirectTo=${encodeURIComponent(pathname)}`}
              className="flex h-14 items-center px-3 font-semibold text-brand-600 dark:text-brand-500"
            >
              {t("Sign in")}
            </Link>
          )}
        </li>
      </ul>
    </nav>
  );
}
