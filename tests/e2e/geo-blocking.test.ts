import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  apiAs,
  browserForThisFile,
  createAccount,
  hydrated,
  LOOKS,
  newContext,
  openPage,
  openIn,
  seriousViolations,
  signedInPage,
  signedInPageIn,
  sql,
  unique,
} from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
/** The creator who hides from Germany in Settings. */
let gaia: Account;

beforeAll(async () => {
  gaia = await createAccount({ username: `geo${unique().slice(-8)}_gaia`, name: "Gaia Geo" });
  await sql(`UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE username = '${gaia.username}'`);
  // await sql() blocks the event loop for seconds: let a kept-alive socket the server closed meanwhile be noticed.
  await new Promise((resolve) => setTimeout(resolve, 20));
});

/** A visitor's page, from `country` as Cloudflare tells (CF-IPCountry). */
async function visitorFrom(country: string): Promise<Page> {
  const context = await newContext(browser(), { extraHTTPHeaders: { "CF-IPCountry": country } });
  return openPage(context);
}

/** The heading of the route's error, or null when the page has none. */
async function errorHeading(page: Page, path: string) {
  const response = await page.goto(path);
  await hydrated(page);
  const failure = page.getByTestId("route-error");
  return {
    status: response?.status(),
    heading: (await failure.count()) ? await failure.getByRole("heading").textContent() : null,
  };
}

describe("geo-blocking", () => {
  it("a creator hides from Germany in Settings: a visitor there gets the missing profile's 404, one from France the profile", async () => {
    const { context, page } = await signedInPage(browser(), gaia);
    // Gaia is in Germany herself: choosing it warns that people here no longer find her.
    await context.setExtraHTTPHeaders({ "CF-IPCountry": "DE" });
    await page.goto("/settings/privacy");
    await hydrated(page);
    const section = page.getByRole("region", { name: "Geo-blocking" });
    await section.getByLabel("Find a country or US state").fill("germ");
    await section.getByRole("button", { name: "Add Germany" }).click();
    await section.getByRole("button", { name: "Remove Germany" }).waitFor();
    await section
      .getByText("You are in Germany now: people here no longer find your profile.", { exact: false })
      .waitFor();
    await section.getByLabel("Find a country or US state").fill("texas");
    await section.getByRole("button", { name: "Add Texas, United States" }).click();
    await section.getByRole("button", { name: "Save" }).click();
    await section.getByRole("status").getByText("Your geo-blocking has been saved.").waitFor();
    const saved = (await apiAs(gaia, "GET", "/me/geo-blocks")) as { places: string[] };
    expect(saved.places).toEqual(["DE", "US-TX"]);
    // Her own profile is hers from anywhere.
    expect((await errorHeading(page, `/${gaia.username}`)).heading).toBeNull();

    const german = await visitorFrom("DE");
    const missing = await errorHeading(german, "/nobody_here_at_all");
    const hidden = await errorHeading(german, `/${gaia.username}`);
    expect(hidden).toEqual({ status: 404, heading: "Page not found" });
    expect(hidden).toEqual(missing);
    expect(await german.getByText("Gaia Geo").count()).toBe(0);

    const french = await visitorFrom("FR");
    expect((await errorHeading(french, `/${gaia.username}`)).status).toBe(200);
    await french.getByRole("heading", { name: "Gaia Geo" }).first().waitFor();
  });

  it.each(LOOKS)("the section has no serious axe finding ($name)", async (look) => {
    const { page } = await signedInPageIn(browser(), gaia, look);
    await openIn(page, "/settings/privacy", look);
    const search = page.locator('input[type="search"]').first();
    await search.fill("fr");
    await page.locator('ul[id$="-matches"] button').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
