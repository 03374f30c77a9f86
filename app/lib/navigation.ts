/** Who is looking, as far as navigation cares (spec §6). */
export interface NavViewer {
  isAuth: boolean;
  isCreator: boolean;
  username: string;
}

export type NavKey =
  | "home"
  | "search"
  | "notifications"
  | "bookmarks"
  | "messages"
  | "wallet"
  | "live"
  | "profile"
  | "dashboard"
  | "vault"
  | "newPost"
  | "goLive";
export type MenuKey = "settings" | "dashboard" | "becomeCreator" | "logout";

export interface NavEntry<K extends string = NavKey> {
  key: K;
  to: string;
  /** Something to do rather than a place (a new post, on Home): never marked as the current page. */
  action?: true;
}

/**
 * Sidebar entries of spec §2 and §6: a visitor sees only Home; members get Live Streams, creators their Dashboard,
 * Vault, New post (the composer at the top of Home) and Go Live instead; My Profile appears once the username is known.
 * A visitor's Home is the landing page.
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
  if (viewer.isCreator)
    entries.push(
      { key: "dashboard", to: "/dashboard" },
      { key: "vault", to: "/vault" },
      { key: "newPost", to: "/home#compose", action: true },
      { key: "goLive", to: "/live/start" },
    );
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

/** The bottom bar keeps the most used entries; the rest of the sidebar moves into the avatar menu (bottomBarMenuEntries). */
export const BOTTOM_BAR_KEYS: ReadonlySet<NavKey> = new Set(["home", "search", "notifications", "messages"]);

/** The bottom bar's menu: the sidebar's entries the bar has no room for, then the avatar menu's (each once). */
export function bottomBarMenuEntries(viewer: NavViewer): NavEntry<NavKey | MenuKey>[] {
  const rest: NavEntry<NavKey | MenuKey>[] = sidebarEntries(viewer).filter((entry) => !BOTTOM_BAR_KEYS.has(entry.key));
  return [...rest, ...avatarMenuEntries(viewer).filter((entry) => !rest.some((other) => other.key === entry.key))];
}

/** Spec §2: inside a conversation (/messages/ then a positive number) the bottom bar is hidden. */
export const isInConversation = (pathname: string) => /^\/messages\/0*[1-9]\d*\/?$/.test(pathname);

/** Badge text for a count: hidden at 0, "99+" past 99 (the server counts up to 100). */
export const badgeCount = (count: number) => (count <= 0 ? null : count > 99 ? "99+" : String(count));
