import { describe, expect, it } from "vitest";
import {
  baseURL,
  browserForThisFile,
  createAccount,
  hydrated,
  latestLinkTo,
  LOOKS,
  openIn,
  seriousViolations,
  signedInPage,
  signedInPageIn,
  textIn,
} from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
/** Asks for an export in the first test; the axe checks then see the section with a ready export. */
let owner: Account;

describe("Settings → Privacy and data → Download my data", () => {
  it("asks for an export; the mailed link opens a page whose download is the ZIP, for its owner only", async () => {
    owner = await createAccount();
    const { page } = await signedInPage(browser(), owner);
    await page.goto("/settings/privacy");
    await hydrated(page);
    const section = page.getByRole("region", { name: "Download my data" });
    await section.getByRole("button", { name: "Download my data" }).click();
    // Preparing, or already ready if the Queue was quicker than the page's new data.
    await section.getByRole("status").first().waitFor();

    // The Queue's consumer builds the ZIP and mails the link (the development mailbox).
    const link = await latestLinkTo(owner.email, "/account/export/");
    expect(new URL(link).origin).toBe(baseURL());
    await page.goto(link);
    await hydrated(page);
    const download = page.getByRole("link", { name: /^Download the ZIP/ });
    const href = await download.getAttribute("href");
    expect(href).toMatch(/^\/account\/export\/\d+\/download$/);
    const zip = await page.request.get(href!);
    expect(zip.status()).toBe(200);
    expect(zip.headers()["content-type"]).toBe("application/zip");
    const bytes = await zip.body();
    expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");
    // Stored, not compressed: the central directory names each file in plain text.
    expect(bytes.toString("latin1")).toContain("profile.json");
    expect(bytes.toString("latin1")).toContain(owner.username);

    // Settings shows the same download now, and no new request for a day.
    await page.goto("/settings/privacy");
    await hydrated(page);
    await section.getByRole("link", { name: /^Download the ZIP/ }).waitFor();
    expect(await section.getByRole("button", { name: "Download my data" }).isDisabled()).toBe(true);

    // Someone else, signed in, finds nothing there.
    const stranger = await createAccount();
    const other = await signedInPage(browser(), stranger);
    expect((await other.page.goto(link))?.status()).toBe(404);
    expect((await other.page.request.get(href!)).status()).toBe(404);
  });

  for (const variant of LOOKS) {
    it(`has no serious or critical axe finding (${variant.name})`, async () => {
      const tr = textIn(variant);
      const { page } = await signedInPageIn(browser(), owner, variant);
      await openIn(page, "/settings/privacy", variant);
      await page
        .getByRole("region", { name: tr("Download my data") })
        .getByRole("status")
        .waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
