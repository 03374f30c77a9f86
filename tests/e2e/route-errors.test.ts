import type { BrowserContext } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { baseURL, browserForThisFile, createAccount, hydrated, signedInPage, sql } from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let member: Account;
let creator: Account;

beforeAll(async () => {
  member = await createAccount();
  creator = await createAccount();
  await sql(`UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE username = '${creator.username}'`);
});

const inGerman = (context: BrowserContext) => context.addCookies([{ name: "i18nextLng", value: "de", url: baseURL() }]);

describe("a route that fails says what failed, in the person's language, inside the layout", () => {
  it("a missing post and a missing profile: not found, with the navigation around it and the way back to the feed", async () => {
    const { page, context } = await signedInPage(browser(), member);
    await inGerman(context);
    for (const path of ["/post/999999999", "/nobody_here_at_all"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await hydrated(page);
      const failure = page.getByTestId("route-error");
      expect(await failure.getByRole("heading").textContent()).toBe("Seite nicht gefunden");
      await failure.getByText("Die gesuchte Seite existiert nicht.").waitFor();
      expect(await failure.getByRole("link", { name: "Zu deinem Feed" }).getAttribute("href")).toBe("/home");
      await page.locator('[data-shell="sidebar"] nav').getByRole("link", { name: "Startseite" }).waitFor();
    }
    await context.close();
  });

  it("a page the account may not open: no access (a member asking for mass messages)", async () => {
    const { page, context } = await signedInPage(browser(), member);
    await inGerman(context);
    const response = await page.goto("/messages?view=mass");
    expect(response?.status()).toBe(403);
    const failure = page.getByTestId("route-error");
    expect(await failure.getByRole("heading").textContent()).toBe("Kein Zugriff");
    await failure.getByText("Dein Konto kann diese Seite nicht öffnen.").waitFor();
    await context.close();
  });

  it("a loader that fails shows the tab's boundary under the dashboard's tabs, not a blank page", async () => {
    const { page, context } = await signedInPage(browser(), creator);
    await inGerman(context);
    await page.goto("/dashboard");
    await hydrated(page);
    await page.route("**/dashboard/withdraw.data*", (route) =>
      route.fulfill({ status: 500, contentType: "text/plain", body: "the loader failed" }),
    );
    const tabs = page.getByRole("navigation", { name: "Übersicht" });
    await tabs.getByRole("link", { name: "Auszahlung beantragen" }).click();
    await page.waitForURL("/dashboard/withdraw");
    const failure = page.getByTestId("route-error");
    await failure.getByRole("heading", { name: "Etwas ist schiefgelaufen" }).waitFor();
    await failure.getByText("Bitte versuche es gleich noch einmal.").waitFor();
    // The layout stays: the row of tabs, the withdrawal tab current, the way to another tab one tap away.
    expect(await tabs.locator('a[aria-current="page"]').textContent()).toBe("Auszahlung beantragen");
    await context.close();
  });
});
