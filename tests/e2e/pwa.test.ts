import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  baseURL,
  browserForThisFile,
  CHROMIUM,
  createAccount,
  fetchWithin,
  hydrated,
  newPage,
  traceUntilTestEnds,
  within,
} from "./support";

const browser = browserForThisFile();
const SERVICE_WORKER_FILE = "build/client/sw.js";

/** The service worker registers after the page's load event and claims the page once it is active. */
async function waitForServiceWorkerControl(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === "activated", null, {
    timeout: 20_000,
  });
}

const pagesCacheURLs = (page: Page) =>
  page.evaluate(async () =>
    (await caches.has("pages"))
      ? (await (await caches.open("pages")).keys()).map(
          (request) => new URL(request.url).pathname + new URL(request.url).search,
        )
      : null,
  );

describe("progressive web app", () => {
  it("serves a web manifest whose icons are PNGs, and the service worker uncached", async () => {
    const response = await fetchWithin(`${baseURL()}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as {
      name: string;
      start_url: string;
      scope: string;
      display: string;
      id: string;
      theme_color: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({
      name: "Fanclub",
      start_url: "/home",
      scope: "/",
      display: "standalone",
      id: "/",
      theme_color: "#0a6fd6",
    });
    const icons = manifest.icons.map(({ sizes, purpose }) => `${sizes} ${purpose}`).sort();
    expect(icons).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
    for (const src of [...manifest.icons.map((icon) => icon.src), "/icons/apple-touch-icon.png"]) {
      const icon = await fetchWithin(`${baseURL()}${src}`);
      expect(icon.status, src).toBe(200);
      expect(icon.headers.get("Content-Type"), src).toBe("image/png");
      expect([...new Uint8Array(await icon.arrayBuffer()).slice(1, 4)], src).toEqual([0x50, 0x4e, 0x47]); // "PNG"
    }

    const worker = await fetchWithin(`${baseURL()}/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get("Content-Type")).toMatch(/javascript/);
    expect(worker.headers.get("Cache-Control")).toBe("no-cache");
    const code = await worker.text();
    expect(code).toContain('"/offline.html"');
    expect(code).toContain('"/manifest.webmanifest"');
    expect(code).not.toContain('"/sw.js"');
    expect(code).not.toMatch(/"\/(?:api|media)\//);
  });

  it("is installable: Chromium reports no installability errors once the service worker controls the page", async () => {
    // browser.newContext() contexts are incognito, where Chromium never offers to install ("in-incognito"):
    // this check needs a persistent profile, as a person's browser has.
    const profile = await mkdtemp(join(tmpdir(), "fanclub-pwa-"));
    const context = await chromium.launchPersistentContext(profile, {
      ...CHROMIUM,
      baseURL: baseURL(),
      locale: "en-US",
    });
    await traceUntilTestEnds(context, () => rm(profile, { recursive: true, force: true }));
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto("/");
    await waitForServiceWorkerControl(page);
    const cdp = await context.newCDPSession(page);
    const { errors } = (await cdp.send("Page.getAppManifest")) as { errors: { message: string }[] };
    expect(errors).toEqual([]);
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    expect(installabilityErrors).toEqual([]);
    await context.close();
  });

  it("offers a new version once it is installed, and switches to it on Reload", async () => {
    const { page, context } = await newPage(browser(), undefined, { serviceWorkers: "allow" });
    await page.goto("/");
    await waitForServiceWorkerControl(page);
    // A "new deployment": the served worker (build/client/sw.js) one comment longer, restored afterwards.
    const served = readFileSync(SERVICE_WORKER_FILE, "utf8");
    const servedETag = (await fetchWithin(`${baseURL()}/sw.js`)).headers.get("ETag");
    // The local server takes a changed built file within seconds (scripts/lib/local-server.mjs): its content and its
    // ETag, which the browser's revalidation (If-None-Match) compares. Until then it may not answer at all.
    const servedNow = async (ending: string) => {
      const response = await fetchWithin(`${baseURL()}/sw.js`);
      return (await response.text()).endsWith(ending) ? response.headers.get("ETag") : null;
    };
    let nextETag: string | null = null;
    onTestFinished(async () => {
      writeFileSync(SERVICE_WORKER_FILE, served);
      // The next test starts from the build as it was, served again: its content, and no longer the next one's ETag.
      await expect
        .poll(async () => [nextETag, null].includes(await servedNow(served.slice(-100))), {
          timeout: 15_000,
        })
        .toBe(false);
    });
    writeFileSync(SERVICE_WORKER_FILE, `${served}\n// next build`);
    await expect
      .poll(async () => (nextETag = await servedNow("// next build")) !== null && nextETag !== servedETag, {
        timeout: 15_000,
      })
      .toBe(true);
    // The browser's update check finds the new worker, which installs and then waits: wait for exactly that.
    // (update() resolves before the registration lists the installing worker: only its events tell.)
    const update = page.evaluate(async () => {
      const registration = (await navigator.serviceWorker.getRegistration())!;
      const installed = new Promise<void>((resolve) =>
        registration.addEventListener("updatefound", () => {
          const worker = registration.installing;
          if (!worker) return resolve(); // already past installing: the prompt below tells whether it waits
          const settled = () => worker.state === "installed" && resolve();
          worker.addEventListener("statechange", settled);
          settled();
        }),
      );
      await registration.update();
      await installed;
    });
    await within(update, "the browser's update check to find the new service worker and install it");
    const prompt = page.getByRole("status").filter({ hasText: "A new version of Fanclub is available." });
    await prompt.waitFor();
    await prompt.getByRole("button", { name: "Later" }).click();
    await prompt.waitFor({ state: "detached" });

    await page.reload();
    await prompt.waitFor(); // still waiting: offered again on the next page load
    const reloaded = page.waitForEvent("load");
    await prompt.getByRole("button", { name: "Reload" }).click();
    await reloaded;
    await waitForServiceWorkerControl(page);
    // The new worker took over: nothing is left waiting, so nothing is offered any more.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting)).toBeNull();
    expect(await prompt.count()).toBe(0);
    await context.close();
  });

  /** Once the page has hydrated and Remix has discovered the route of its "Verify now" link (/email/verify). */
  const linksFollowedByTheApp = async (page: Page) => {
    await hydrated(page);
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            "routes/email.verify._index" in
            (window as unknown as { __remixManifest: { routes: object } }).__remixManifest.routes,
        ),
      )
      .toBe(true);
  };

  /** A new account signed in on a page the service worker controls, on /home, its heading shown. */
  const signedInWithServiceWorker = async () => {
    const account = await createAccount();
    const { page, context } = await newPage(browser(), undefined, { serviceWorkers: "allow" });
    await page.goto("/login");
    await waitForServiceWorkerControl(page);
    await page.getByLabel("Email or username").fill(account.username);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/home");
    const heading = page.getByRole("heading", { name: `Welcome, ${account.name}!` });
    await heading.waitFor();
    return { page, context, heading };
  };

  it("reloads a visited page offline, shows the offline page for others, and forgets pages on CLEAR_PRIVATE_DATA", async () => {
    const { page, context, heading } = await signedInWithServiceWorker();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    // A client-side navigation (single-fetch data) while online, to repeat offline: once the page has hydrated and
    // discovered the route of its links (before that, a click loads the address as a document).
    await linksFollowedByTheApp(page);
    await page.getByRole("link", { name: "Verify now" }).click();
    await page.getByRole("heading", { name: "Verify your email address" }).waitFor();
    await page.goBack();
    await heading.waitFor();
    // Kept by the service worker: the page itself; never the API.
    await expect.poll(() => pagesCacheURLs(page)).toContain("/home");
    expect((await pagesCacheURLs(page))!.filter((url) => /^\/(?:api|media|dev)\//.test(url))).toEqual([]);

    await context.setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    // The network is really cut, for the service worker's fetches too: a never visited address is the offline page.
    await page.goto("/home?never-visited=1");
    await page.getByRole("heading", { name: "You are offline" }).waitFor();
    await page.goto("/home");
    await heading.waitFor();
    // The kept page's <title>, once hydration has rendered the head again; the link is followed by the app, from
    // the kept single-fetch data and the kept /__manifest.
    await linksFollowedByTheApp(page);
    await expect.poll(() => page.title()).toBe("Home · Fanclub");
    await page.getByRole("link", { name: "Verify now" }).click();
    await page.getByRole("heading", { name: "Verify your email address" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/email/verify");

    // Never visited: the precached fallback, whose "Try again" link reloads the same address.
    await page.goto("/home?unvisited=1");
    await page.getByRole("heading", { name: "You are offline" }).waitFor();
    const retry = page.getByRole("link", { name: "Try again" });
    expect(await retry.evaluate((link) => (link as HTMLAnchorElement).href)).toBe(`${baseURL()}/home?unvisited=1`);

    await context.setOffline(false);
    await retry.click();
    await heading.waitFor();
    // The page is shown before its hydration: the hydration's own requests (the route's client loader)
    // must be over before the private data is cleared, or the worker keeps what they bring after the clearing.
    await hydrated(page);

    // Sign-out sends CLEAR_PRIVATE_DATA (app/lib/offline.ts): the worker answers once "pages" is gone. First let
    // the worker finish keeping the page just loaded, or that late write would bring it back.
    await waitForServiceWorkerControl(page);
    await expect.poll(() => pagesCacheURLs(page)).toContain("/home?unvisited=1");
    const answer = await within(
      page.evaluate(
        () =>
          new Promise((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = (event) => resolve(event.data);
            navigator.serviceWorker.controller!.postMessage({ type: "CLEAR_PRIVATE_DATA" }, [channel.port2]);
          }),
      ),
      "the service worker's answer to CLEAR_PRIVATE_DATA",
    );
    expect(answer).toEqual({ type: "CLEAR_PRIVATE_DATA", deleted: true });
    // Remix's route discovery (/__manifest, cached for offline navigation) may start the cache again at once,
    // but no page of the signed-in person is left in it.
    expect((await pagesCacheURLs(page)) ?? []).not.toContain("/home");

    // Offline again (an address never visited proves it), the page that was kept is no longer there.
    await context.setOffline(true);
    await page.goto("/home?never-visited=2");
    await page.getByRole("heading", { name: "You are offline" }).waitFor();
    await page.goto("/home");
    await page.getByRole("heading", { name: "You are offline" }).waitFor();
    await context.close();
  });

  it("shows the offline page in the person's language: the browser's, or the one chosen in the app", async () => {
    const ar = JSON.parse(readFileSync("app/locales/ar.json", "utf8")) as Record<string, string>;
    const ja = JSON.parse(readFileSync("app/locales/ja.json", "utf8")) as Record<string, string>;
    const { page, context } = await newPage(browser(), undefined, { serviceWorkers: "allow", locale: "ar-EG" });
    await page.goto("/");
    await waitForServiceWorkerControl(page);
    await context.setOffline(true);
    await page.goto("/never-visited?page=1");
    const offline = (texts: Record<string, string>) => page.getByRole("heading", { name: texts["You are offline"] });
    await offline(ar).waitFor();
    expect(
      await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir, document.title]),
    ).toEqual(["ar", "rtl", `${ar["You are offline"]} · Fanclub`]);
    expect(
      await page
        .getByText(ar["This page was not saved on this device. It opens again once you are back online."]!)
        .count(),
    ).toBe(1);
    expect(
      await page.getByRole("link", { name: ar["Try again"] }).evaluate((link) => (link as HTMLAnchorElement).href),
    ).toBe(`${baseURL()}/never-visited?page=1`);
    expect(
      await page
        .getByRole("link", { name: ar["Go to your feed"] })
        .evaluate((link) => (link as HTMLAnchorElement).href),
    ).toBe(`${baseURL()}/home`);
    // A language chosen in the app (its cookie, spec §9) comes before the browser's.
    await context.addCookies([{ name: "i18nextLng", value: "ja", url: baseURL() }]);
    await page.goto("/never-visited?page=2");
    await offline(ja).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      "ja",
      "ltr",
    ]);
    expect(await page.getByRole("link", { name: ja["Try again"] }).count()).toBe(1);
    await context.close();
  });

  it("offline, follows a link tapped before the hydration to the kept screen, and opens a screen kept only as a page", async () => {
    const { page, context, heading } = await signedInWithServiceWorker();
    // Online: /email/verify opened by the app (the worker keeps its single-fetch data, not a page), /settings
    // loaded as a document (the worker keeps the page, not its data).
    await linksFollowedByTheApp(page);
    await page.getByRole("link", { name: "Verify now" }).click();
    await page.getByRole("heading", { name: "Verify your email address" }).waitFor();
    await page.goto("/settings");
    await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
    await page.goto("/home");
    await heading.waitFor();
    await expect
      .poll(async () =>
        (await pagesCacheURLs(page))
          ?.filter((url) => /^\/(?:home|settings|email\/verify\.data)\b/.test(url))
          .map((url) => url.split("?")[0])
          .sort(),
      )
      .toEqual(["/email/verify.data", "/home", "/settings"]);

    await context.setOffline(true);
    // The network is really cut, for the service worker's fetches too: a never visited address is the offline page.
    await page.goto("/home?never-visited=3");
    await page.getByRole("heading", { name: "You are offline" }).waitFor();
    // A tap on the kept page before it has hydrated, made when the document has been read (readyState
    // "interactive"): the page's module scripts run only after that, so no hydration can come first.
    await page.addInitScript(() => {
      if (location.pathname !== "/home" || sessionStorage.getItem("tappedEarly") !== null) return;
      document.addEventListener("readystatechange", () => {
        if (document.readyState !== "interactive") return;
        sessionStorage.setItem("tappedEarly", "");
        Object.assign(window, { sameDocument: true });
        const before = !("hydrated" in document.documentElement.dataset);
        // A link within the page (the skip link) stays the browser's: it moves at once.
        document.querySelector<HTMLAnchorElement>('a[href="#content"]')!.click();
        const skipped = location.hash === "#content";
        const verify = [...document.querySelectorAll<HTMLAnchorElement>("a")].find(
          (link) => link.textContent?.trim() === "Verify now",
        );
        verify!.click();
        Object.assign(window, { tappedBeforeHydration: { before, skipped } });
      });
    });
    const documents: string[] = [];
    page.on(
      "request",
      (request) =>
        request.isNavigationRequest() &&
        request.frame() === page.mainFrame() &&
        documents.push(new URL(request.url()).pathname),
    );
    await page.goto("/home");
    // Held, then followed by the app from the kept data. Without that, the browser would load /email/verify as a
    // document, which the worker never kept: the offline page.
    // page.goto waits for the load event, which comes after the tap.
    const tappedBeforeHydration = await page.evaluate(
      () => (window as unknown as { tappedBeforeHydration?: unknown }).tappedBeforeHydration,
    );
    expect(tappedBeforeHydration).toEqual({ before: true, skipped: true });
    await page.getByRole("heading", { name: "Verify your email address" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/email/verify");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    // The app's own link to a screen whose data was never kept, while its page was: the kept page, not "This page
    // was not saved on this device".
    await page.goto("/home");
    await hydrated(page);
    await page.locator('[data-shell="sidebar"]').getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menu").getByRole("menuitem", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/settings");
    expect(await page.locator("html[data-saved-page]").count()).toBe(1);
    await hydrated(page);
    // The page's own data asked again (as after a form sent offline) fails as it would: the page is not loaded again.
    type Router = { revalidate(): void; state: { revalidation: string } };
    await page.evaluate(() => (window as unknown as { __remixRouter: Router }).__remixRouter.revalidate());
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { __remixRouter: Router }).__remixRouter.state.revalidation),
      )
      .toBe("idle");
    await page.waitForTimeout(500);
    // The documents loaded: /home twice and /settings once, from the cache; /email/verify was none (the app
    // followed the tap).
    expect(documents).toEqual(["/home", "/home", "/settings"]);
    await context.close();
  });
});
