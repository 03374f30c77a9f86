import { describe, expect, it } from "vitest";
import {
  avatarMenuEntries,
  badgeCount,
  bottomBarMenuEntries,
  isInConversation,
  sidebarEntries,
} from "~/lib/navigation";
import { summaryToShow, type Updates } from "~/lib/updates";

const visitor = { isAuth: false, isCreator: false, username: "" };
const member = { isAuth: true, isCreator: false, username: "dana" };
const creator = { isAuth: true, isCreator: true, username: "mia.rivers" };

describe("navigation by role (spec §2, §6)", () => {
  it("shows a visitor only Home, pointing at the landing page", () => {
    expect(sidebarEntries(visitor)).toEqual([{ key: "home", to: "/" }]);
    expect(avatarMenuEntries(visitor)).toEqual([]);
  });

  it("gives members Live Streams and Become a creator", () => {
    expect(sidebarEntries(member).map((e) => e.key)).toEqual([
      "home",
      "search",
      "notifications",
      "bookmarks",
      "messages",
      "wallet",
      "live",
      "profile",
    ]);
    expect(sidebarEntries(member).find((e) => e.key === "profile")?.to).toBe("/dana");
    expect(avatarMenuEntries(member).map((e) => e.to)).toEqual(["/settings", "/becomeCreator", "/logout"]);
  });

  it("gives creators their Dashboard, Vault, New post and Go Live in the sidebar, and Dashboard in the avatar menu", () => {
    expect(sidebarEntries(creator).map((e) => e.key)).toEqual([
      "home",
      "search",
      "notifications",
      "bookmarks",
      "messages",
      "wallet",
      "profile",
      "dashboard",
      "vault",
      "newPost",
      "goLive",
    ]);
    expect(
      sidebarEntries(creator)
        .slice(-4)
        .map((e) => e.to),
    ).toEqual(["/dashboard", "/vault", "/home#compose", "/live/start"]);
    expect(
      sidebarEntries(creator)
        .filter((e) => e.action)
        .map((e) => e.key),
    ).toEqual(["newPost"]);
    expect(avatarMenuEntries(creator).map((e) => e.to)).toEqual(["/settings", "/dashboard", "/logout"]);
  });

  it("puts the rest of the sidebar and the avatar menu into the bottom bar's menu, each entry once", () => {
    expect(bottomBarMenuEntries(creator).map((e) => e.key)).toEqual([
      "bookmarks",
      "wallet",
      "profile",
      "dashboard",
      "vault",
      "newPost",
      "goLive",
      "settings",
      "logout",
    ]);
    expect(bottomBarMenuEntries(member).map((e) => e.key)).toEqual([
      "bookmarks",
      "wallet",
      "live",
      "profile",
      "settings",
      "becomeCreator",
      "logout",
    ]);
  });

  it("leaves My Profile out until the username is known", () => {
    expect(sidebarEntries({ ...member, username: "" }).map((e) => e.key)).not.toContain("profile");
  });
});

describe("isInConversation", () => {
  it.each([
    ["/messages/1", true],
    ["/messages/42/", true],
    ["/messages", false],
    ["/messages/", false],
    ["/messages/0", false],
    ["/messages/-3", false],
    ["/messages/abc", false],
    ["/messages/12/media", false],
  ])("%s → %s", (path, expected) => expect(isInConversation(path)).toBe(expected));
});

describe("badges", () => {
  it("hide at 0 and cap at 99+", () => {
    expect(badgeCount(0)).toBeNull();
    expect(badgeCount(7)).toBe("7");
    expect(badgeCount(99)).toBe("99");
    expect(badgeCount(100)).toBe("99+");
  });
});

describe("the updates summary shown (app/lib/updates.tsx)", () => {
  const shown: Updates = { home: false, notifications: 3, messages: 1, balance: false };

  it("keeps the summary shown when an answer says the same: nothing reading it renders again", () => {
    expect(summaryToShow(shown, { ...shown })).toBe(shown);
  });

  it("takes an answer that changes any of the four", () => {
    for (const change of [{ home: true }, { notifications: 4 }, { messages: 0 }, { balance: true }]) {
      const next = { ...shown, ...change };
      expect(summaryToShow(shown, next)).toBe(next);
    }
  });

  it("takes every answer with the Home dot lit: each is news for an open Home, which asks for the posts since", () => {
    const lit = { ...shown, home: true };
    const again = { ...lit };
    expect(summaryToShow(lit, again)).toBe(again);
  });
});
