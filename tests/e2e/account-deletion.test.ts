import { describe, expect, it } from "vitest";
import {
  browserForThisFile,
  createAccount,
  hydrated,
  LOOKS,
  newContext,
  openPage,
  seriousViolations,
  openIn,
  signedInPage,
  signedInPageIn,
  textIn,
} from "./support";

const browser = browserForThisFile();

describe("deleting an account from Settings → Privacy and data", () => {
  for (const variant of LOOKS) {
    const tr = textIn(variant);

    it(`hides the profile at once: another browser gets the 404; no serious axe finding (${variant.name})`, async () => {
      const account = await createAccount();
      const { page } = await signedInPageIn(browser(), account, variant);
      await openIn(page, "/settings/privacy", variant);
      const section = page.getByRole("region", { name: tr("Delete my account") });
      expect(await seriousViolations(page)).toEqual([]);

      await section.getByRole("button", { name: tr("Delete my account"), exact: true }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel(tr("Password")).fill("not my password");
      await dialog.getByRole("button", { name: tr("Delete my account in 30 days") }).click();
      await dialog.getByRole("alert").waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await dialog.getByLabel(tr("Password")).fill(account.password);
      await dialog.getByRole("button", { name: tr("Delete my account in 30 days") }).click();
      // Leaving: the section and the banner above the page offer to keep the account.
      await section.getByRole("button", { name: tr("Keep my account") }).waitFor();
      await page
        .getByRole("status")
        .getByRole("button", { name: tr("Keep my account") })
        .waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      const visitor = await openPage(await newContext(browser()));
      const profile = await visitor.goto(`/${account.username}`);
      expect(profile!.status()).toBe(404);
    });
  }

  it("keeps the account from the banner: the profile is back", async () => {
    const account = await createAccount();
    const { page, token } = await signedInPage(browser(), account);
    // Asked with this browser's own session, which stays signed in.
    const asked = await page.request.post("/api/account/deletion", {
      data: { password: account.password },
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(asked.status()).toBe(200);
    await page.goto("/home");
    await hydrated(page);
    await page.getByRole("status").getByRole("button", { name: "Keep my account" }).click();
    await page.getByRole("button", { name: "Keep my account" }).waitFor({ state: "detached" });
    const visitor = await openPage(await newContext(browser()));
    expect((await visitor.goto(`/${account.username}`))!.status()).toBe(200);
  });
});
