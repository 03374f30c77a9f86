import { describe, expect, it } from "vitest";
import { isKeptOffline, isMediaPath, isNeverCached, markSavedPage } from "../../app/sw/policy";

describe("what the service worker never caches", () => {
  it.each(["/api/wallet", "/media/posts/a.jpg", "/ws/updates", "/dev/mailbox", "/wallet/top-up/12", "/wallet/top-up/12.data"])("%s", (path) => expect(isNeverCached(path)).toBe(true));

  it.each(["/wallet", "/wallet.data", "/home", "/apiary", "/wallet/top-ups"])("keeps %s", (path) => expect(isNeverCached(path)).toBe(false));
});

describe("the screens kept for offline reading", () => {
  it.each(["/home", "/bookmarks", "/notifications", "/wallet", "/messages", "/messages/12", "/dashboard", "/dashboard/earnings", "/dashboard/payouts"])("keeps %s", (path) =>
    expect(isKeptOffline(path)).toBe(true),
  );

  it.each(["/", "/homes", "/messages/12/x", "/messages/abc", "/dashboard/plans", "/dashboard/withdraw", "/wallet/top-up/3", "/settings", "/mia.rivers"])("not %s", (path) =>
    expect(isKeptOffline(path)).toBe(false),
  );

  it("media paths are told apart from pages that merely start alike", () => {
    expect(isMediaPath("/media/posts/a.jpg")).toBe(true);
    expect(isMediaPath("/mediators")).toBe(false);
  });
});

describe("a page served from the page cache", () => {
  it("says so on its root element, and only there", () => {
    const html = '<!DOCTYPE html><html lang="en" dir="ltr"><head></head><body><p>&lt;html&gt;</p><pre><html-like></pre></body></html>';
    const marked = markSavedPage(html);
    expect(marked).toBe('<!DOCTYPE html><html data-saved-page="" lang="en" dir="ltr"><head></head><body><p>&lt;html&gt;</p><pre><html-like></pre></body></html>');
    expect(markSavedPage("<!doctype html><HTML><body></body></HTML>")).toBe('<!doctype html><html data-saved-page=""><body></body></HTML>');
  });
});
