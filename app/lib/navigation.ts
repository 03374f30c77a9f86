/** Who is looking, as far as navigation cares (spec §6). */
export interface NavViewer {
  isAuth: boolean;
  isCreator: boolean;
  username: string;
}

export type NavKey = "home" | "search" | "notifications" | "bookmarks" | "messages" | "wallet" | "live" | "profile" | "goLive";
export type MenuKey = "settings" | "dashboard" | "becomeCreator" | "logout";

export interface NavEntry<K extends string = NavKey> {
  key: K;
  to: string;
}

/**
 * Sidebar entries of spec §2 and §6: a visitor sees only Home; members get Live Streams, creators Go Live
 * instead; My Profile appears once the username is known. A visitor's Home is the landing page.
 */
export function sidebarEntries(viewer: NavViewer): NavEntry[] {
  if (!viewer.isAuth) return [{ key: "home", to: "/" }];
  const entries: NavEntry[] = [
    { key: "home", to: "/home" },
    { key: "search", to: "/search" },
    { key: "notifications", to: "/notifications" },
    { key: "bookmarks", to: "/bookmarks" },
    { key: "messages", to: "/messages" },
    { key: "wallet", to: "/wallet" },
  ];
  if (!viewer.isCreator) entries.push({ key: "live", to: "/live" });
  if (viewer.username) entries.push({ key: "profile", to: `/${viewer.username}` });
  if (viewer.isCreator) entries.push({ key: "goLive", to: "/live/start" });
  return entries;
}

/** The avatar menu: Settings, then Dashboard for creators or Become a creator for others, then Logout. */
export function avatarMenuEntries(viewer: NavViewer): NavEntry<MenuKey>[] {
  if (!viewer.isAuth) return [];
  return [
    { key: "settings", to: "/settings" },
    viewer.isCreator ? { key: "dashboard", to: "/dashboard" } : { key: "becomeCreator", to: "/becomeCreator" },
    { key: "logout", to: "/logout" },
  ];
}

/** The bottom bar keeps the most used entries; the rest of the sidebar moves into the avatar menu. */
export const BOTTOM_BAR_KEYS: ReadonlySet<NavKey> = new Set(["home", "search", "notifications", "messages"]);

/** Spec §2: inside a conversation (/messages/ then a positive number) the bottom bar is hidden. */
export const isInConversation = (pathname: string) => /^\/messages\/0*[1-9]\d*\/?$/.test(pathname);

/** Badge text for a count: hidden at 0, "99+" past 99 (the server counts up to 100). */
export const badgeCount = (count: number) => (count <= 0 ? null : count > 99 ? "99+" : String(count));
