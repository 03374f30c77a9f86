import { useTranslation } from "react-i18next";
import type { MenuKey, NavKey } from "~/lib/navigation";

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
    goLive: t("Go Live"),
    settings: t("Settings"),
    dashboard: t("Dashboard"),
    becomeCreator: t("Become a creator"),
    logout: t("Logout"),
  };
}
