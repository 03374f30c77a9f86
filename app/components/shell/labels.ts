import { useTranslation } from "react-i18next";
import type { MenuKey, NavEntry, NavKey } from "~/lib/navigation";
import { useRootData } from "~/root";
import type { MenuItem } from "~/components/shell/menu";

/** The translated label of every navigation entry. */
export function useNavLabels(): Record<NavKey | MenuKey, string> {
  const { t } = useTranslation();
  return {
    home: t("Home"),
    search: t("Search"),
    notifications: t("Notifications"),
    bookmarks: t("Bookmarks"),
    messages: t("Messages"),
    wallet: t("Wallet"),
    live: t("Live Streams"),
    profile: t("My Profile"),
    newPost: t("New post"),
    goLive: t("Go Live"),
    settings: t("Settings"),
    dashboard: t("Dashboard"),
    vault: t("Vault"),
    becomeCreator: t("Become a creator"),
    logout: t("Logout"),
  };
}

/**
 * Navigation entries as menu items: translated, each with its icon; Logout loads a whole new page. Admins also
 * find the admin area just before Logout.
 */
export function useMenuItems(entries: NavEntry<NavKey | MenuKey>[]): MenuItem[] {
  const { t } = useTranslation();
  const labels = useNavLabels();
  const isAdmin = useRootData()?.viewerIsAdmin ?? false;
  return entries.flatMap((entry) => {
    const item: MenuItem = {
      key: entry.key,
      label: labels[entry.key],
      to: entry.to,
      icon: entry.key,
      reloadDocument: entry.key === "logout",
    };
    return isAdmin && entry.key === "logout"
      ? [{ key: "admin", label: t("Admin"), to: "/admin", icon: "dashboard" }, item]
      : [item];
  });
}
