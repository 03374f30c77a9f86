import { Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Logo } from "~/components/logo";
import { avatarMenuEntries, sidebarEntries, type NavEntry, type NavViewer } from "~/lib/navigation";
import { NavBadge } from "~/components/shell/badge";
import { Avatar } from "~/components/shell/avatar";
import { Icon } from "~/components/shell/icons";
import { useMenuItems, useNavLabels } from "~/components/shell/labels";
import { MenuButton } from "~/components/shell/menu";
import { NameAndHandle } from "~/components/handle";

/** Spec §9: sidebar tooltips appear after 1000 ms. */
const TOOLTIP_DELAY_MS = 1000;

/**
 * One sidebar entry. At the in-between width the sidebar shows icons only: the label stays for screen readers
 * and a tooltip shows it after hovering or focusing for a second.
 */
function SidebarLink({ entry, label }: { entry: NavEntry; label: string }) {
  const [tooltip, setTooltip] = useState(false);
  const timer = useRef<number>();
  const show = () => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setTooltip(true), TOOLTIP_DELAY_MS);
  };
  const hide = () => {
    window.clearTimeout(timer.current);
    setTooltip(false);
  };
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const linkClass =
    "flex items-center justify-center gap-4 rounded-full p-3 text-lg hover:bg-slate-100 dark:hover:bg-slate-800 wide:justify-start wide:px-4";
  return (
    <li className="relative">
      <NavLink
        to={entry.to}
        end={entry.to === "/"}
        prefetch="intent"
        data-nav={entry.key}
        onMouseEnter={show}
        onMouseLeave={hide}
        onFocus={show}
        onBlur={hide}
        onKeyDown={(event) => event.key === "Escape" && hide()}
        // An action (New post, on Home) is never the current page: Home is.
        aria-current={entry.action ? false : undefined}
        className={({ isActive }) => `${linkClass} ${isActive && !entry.action ? "font-bold" : ""}`}
      >
        <span className="relative">
          <Icon name={entry.key} />
          <NavBadge entry={entry.key} />
        </span>
        {/* A long word ("Benachrichtigungen") breaks, hyphenated where the browser knows the language, within the column. */}
        <span className="sr-only wide:not-sr-only wide:min-w-0 wide:hyphens-auto wide:break-words">{label}</span>
      </NavLink>
      {tooltip ? (
        <span
          role="tooltip"
          className="pointer-events-none absolute start-full top-1/2 z-50 ms-2 -translate-y-1/2 whitespace-nowrap rounded-md bg-slate-900 px-2 py-1 text-sm text-white shadow wide:hidden dark:bg-slate-100 dark:text-slate-900"
        >
          {label}
        </span>
      ) : null}
    </li>
  );
}

export interface ShellViewer extends NavViewer {
  name: string;
  avatarUrl: string;
}

/** The sidebar of spec §2: icons only between 1025 and 1279 px, labelled from 1280 px. */
export function Sidebar({ viewer }: { viewer: ShellViewer }) {
  const { t } = useTranslation();
  const labels = useNavLabels();
  const menuItems = useMenuItems(avatarMenuEntries(viewer));
  const { pathname } = useLocation();
  return (
    <div className="flex h-full flex-col justify-between gap-4 py-4">
      <div className="space-y-4">
        <Link
          to={viewer.isAuth ? "/home" : "/"}
          aria-label={t("Fanclub home")}
          className="flex justify-center px-3 wide:justify-start"
        >
          <Logo className="h-8 [&>span:last-child]:hidden wide:[&>span:last-child]:inline" />
        </Link>
        <nav aria-label={t("Main")}>
          <ul className="space-y-1">
            {sidebarEntries(viewer).map((entry) => (
              <SidebarLink key={entry.key} entry={entry} label={labels[entry.key]} />
            ))}
          </ul>
        </nav>
      </div>
      {viewer.isAuth ? (
        <MenuButton
          label={t("Account menu")}
          items={menuItems}
          placement="above-start"
          buttonClassName="flex w-full items-center justify-center gap-3 rounded-full p-2 hover:bg-slate-100 dark:hover:bg-slate-800 wide:justify-start"
        >
          <Avatar url={viewer.avatarUrl} name={viewer.name || viewer.username} />
          <span className="hidden min-w-0 text-start wide:block">
            <NameAndHandle name={viewer.name} username={viewer.username} />
          </span>
        </MenuButton>
      ) : (
        <div className="flex flex-col gap-2 px-1">
          <Link to={`/login?redirectTo=${encodeURIComponent(pathname)}`} className="btn-primary px-2 text-sm">
            {t("Sign in")}
          </Link>
          <Link to="/signup" className="btn-secondary px-2 text-sm">
            {t("Sign up")}
          </Link>
        </div>
      )}
    </div>
  );
}
