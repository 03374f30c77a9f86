import { describe, expect, it } from "vitest";
import { decode } from "turbo-stream";
import {
  EARLY_LINKS_SCRIPT,
  isKeptOffline,
  isMediaPath,
  isNeverCached,
  markSavedPage,
  pageOfData,
  reloadAsDocument,
  samePage,
} from "../../app/sw/policy";

describe("what the service worker never caches", () => {
  it.each([
    "/api/wallet",
    "/media/posts/a.jpg",
    "/ws/updates",
    "/dev/mailbox",
    "/wallet/top-up/12",
    "/wallet/top-up/12.data",
    "/account/export/3",
    "/account/export/3/download",
  ])("%s", (path) => expect(isNeverCached(path)).toBe(true));

  it.each(["/wallet", "/wallet.data", "/home", "/apiary", "/wallet/top-ups"])("keeps %s", (path) =>
    expect(isNeverCached(path)).toBe(false),
  );
});

describe("the screens kept for offline reading", () => {
  it.each([
    "/home",
    "/bookmarks",
    "/notifications",
    "/wallet",
    "/messages",
    "/messages/12",
    "/dashboard",
    "/dashboard/payouts",
    "/dashboard/promotions",
  ])("keeps %s", (path) => expect(isKeptOffline(path)).toBe(true));

  it.each([
    "/",
    "/homes",
    "/messages/12/x",
    "/messages/abc",
    "/dashboard/earnings",
    "/dashboard/plans",
    "/dashboard/withdraw",
    "/dashboard/promotions/1",
    "/wallet/top-up/3",
    "/settings",
    "/mia.rivers",
  ])("not %s", (path) => expect(isKeptOffline(path)).toBe(false));

  it("media paths are told apart from pages that merely start alike", () => {
    expect(isMediaPath("/media/posts/a.jpg")).toBe(true);
    expect(isMediaPath("/mediators")).toBe(false);
  });
});

describe("a page served from the page cache", () => {
  it("says so on its root element, and only there", () => {
    const html =
      '<!DOCTYPE html><html lang="en" dir="ltr"><head></head><body><p>&lt;html&gt;</p><pre><html-like></pre></body></html>';
    const marked = markSavedPage(html);
    expect(marked).toBe(
      `<!DOCTYPE html><html data-saved-page="" lang="en" dir="ltr"><head><script>${EARLY_LINKS_SCRIPT}</script></head><body><p>&lt;html&gt;</p><pre><html-like></pre></body></html>`,
    );
    expect(markSavedPage("<!doctype html><HTML><body></body></HTML>")).toBe(
      '<!doctype html><html data-saved-page=""><body></body></HTML>',
    );
  });

  it("gets the script that holds a link tapped before the hydration, with the nonce of the page's policy, first in its <head>", () => {
    const csp = "default-src 'self'; script-src 'self' 'nonce-Ab3+/x=='; style-src 'self' 'unsafe-inline'";
    const html =
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><script nonce="Ab3+/x==">x()</script></head><body><header>h</header></body></html>';
    expect(markSavedPage(html, csp)).toBe(
      `<!DOCTYPE html><html data-saved-page="" lang="en"><head><script nonce="Ab3+/x==">${EARLY_LINKS_SCRIPT}</script><meta charset="utf-8"><script nonce="Ab3+/x==">x()</script></head><body><header>h</header></body></html>`,
    );
    expect(markSavedPage('<html><head class="x"></head></html>', "script-src 'self'")).toBe(
      `<html data-saved-page=""><head class="x"><script>${EARLY_LINKS_SCRIPT}</script></head></html>`,
    );
    // Only script-src's nonce, and only if it is one (base64): nothing else of the header reaches the HTML.
    const bare = `<html data-saved-page=""><head><script>${EARLY_LINKS_SCRIPT}</script></head></html>`;
    expect(markSavedPage("<html><head></head></html>", "style-src 'nonce-abc'; script-src 'self'")).toBe(bare);
    expect(
      markSavedPage("<html><head></head></html>", `script-src 'self' 'nonce-a"><img src=x onerror=alert(1)>'`),
    ).toBe(bare);
    // The script parses as JavaScript.
    expect(() => new Function(EARLY_LINKS_SCRIPT)).not.toThrow();
  });
});

describe("a screen's data the service worker does not have, while it keeps the screen's page", () => {
  it("names the page of a single-fetch data address", () => {
    const page = (href: string) => pageOfData(new URL(href))?.href ?? null;
    expect(page("https://fan.test/email/verify.data")).toBe("https://fan.test/email/verify");
    expect(page("https://fan.test/_root.data?_routes=root")).toBe("https://fan.test/");
    expect(page("https://fan.test/mia.rivers.data?tab=media&_routes=root%2Croutes%2F_shell.%24username")).toBe(
      "https://fan.test/mia.rivers?tab=media",
    );
    expect(page("https://fan.test/home")).toBeNull();
    // A path of another site's form ("//host/…") is never named: a redirect there would leave the site.
    expect(page("https://fan.test//evil.example/x.data")).toBeNull();
  });

  it("knows a page whatever way its query was written", () => {
    const same = (a: string, b: string) => samePage(new URL(a), new URL(b));
    expect(same("https://fan.test/search?q=a%20b&tags=x,y", "https://fan.test/search?q=a+b&tags=x%2Cy")).toBe(true);
    expect(same("https://fan.test/search?q=a", "https://fan.test/search?q=b")).toBe(false);
    expect(same("https://fan.test/search?q=a", "https://fan.test/search")).toBe(false);
    expect(same("https://fan.test/a", "https://fan.test/b")).toBe(false);
    expect(same("https://fan.test/a", "https://other.test/a")).toBe(false);
    expect(same("https://fan.test/a#top", "https://fan.test/a")).toBe(true);
  });

  it("answers with a redirect that Remix's single fetch decodes as a document load of the page", async () => {
    const answer = reloadAsDocument("/mia.rivers?tab=media");
    expect(answer.status).toBe(202);
    expect(answer.headers.get("X-Remix-Response")).toBe("yes");
    expect(answer.headers.get("Content-Type")).toBe("text/x-script");
    // Decoded as @remix-run/react 2.17.5's single fetch does (decodeViaTurboStream's plugin for redirects).
    const decoded = await decode(answer.body!, {
      plugins: [
        (type: string, ...rest: unknown[]) =>
          type === "SingleFetchRedirect" ? { value: { singleFetchRedirect: rest[0] } } : undefined,
      ],
    });
    await decoded.done;
    expect(decoded.value).toEqual({
      singleFetchRedirect: {
        redirect: "/mia.rivers?tab=media",
        status: 302,
        revalidate: false,
        reload: true,
        replace: false,
      },
    });
  });
});
