import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  baseURL,
  browserForThisFile,
  createAccount,
  fetchWithin,
  hydrated,
  latestLinkTo,
  signedInPage,
  unique,
} from "./support";

const browser = browserForThisFile();

describe("Settings → Account", () => {
  it("changes the password with the current one, signs other devices out, sends an email change link; on a phone the tabs scroll", async () => {
    const account = await createAccount();
    const me = (token: string) => fetchWithin(`${baseURL()}/api/me`, { headers: { Authorization: `Bearer ${token}` } });
    const { page } = await signedInPage(browser(), account);
    expect((await me(account.token)).status).toBe(200);

    await page.goto("/settings/account");
    await hydrated(page);
    const passwordForm = page.getByRole("region", { name: "Change password" });
    await passwordForm.getByLabel("Current password").fill("not my password");
    await passwordForm.getByLabel("New password", { exact: true }).fill("a quiet harbour at dawn");
    await passwordForm.getByLabel("Repeat the new password").fill("a quiet harbour at dawn");
    await passwordForm.getByRole("button", { name: "Change password" }).click();
    await passwordForm.getByText("Wrong password").waitFor();
    await passwordForm.getByLabel("Current password").fill(account.password);
    await passwordForm.getByRole("button", { name: "Change password" }).click();
    await passwordForm.getByText("Your password was changed. Other devices have been signed out.").waitFor();
    expect(await passwordForm.getByLabel("Current password").inputValue()).toBe("");
    // The sign-up session (another device) is over; this one goes on.
    expect((await me(account.token)).status).toBe(401);
    await page.reload();
    await page.getByRole("region", { name: "Change password" }).waitFor();
    await hydrated(page);
    const login = await fetchWithin(`${baseURL()}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ login: account.email, password: "a quiet harbour at dawn" }),
    });
    expect(login.status).toBe(200);

    const emailForm = page.getByRole("region", { name: "Change email" });
    const newEmail = `${unique()}@example.test`;
    await emailForm.getByLabel("New email address").fill(newEmail);
    await emailForm.getByRole("button", { name: "Send confirmation link" }).click();
    await emailForm.getByText("Please enter your password").waitFor();
    await emailForm.getByLabel("Password").fill("a quiet harbour at dawn");
    await emailForm.getByRole("button", { name: "Send confirmation link" }).click();
    await emailForm.getByText("We have sent a confirmation link to your new address.").waitFor();
    expect(await latestLinkTo(newEmail, "/email/verify-change-email")).toContain("/email/verify-change-email");

    // On a phone the tabs keep each label on one line, in short and long words and in Japanese (no spaces to wrap
    // at): the row is wider than the screen and scrolls sideways by itself; the page does not.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const language of ["en", "de", "ja"]) {
      const texts = JSON.parse(readFileSync(`app/locales/${language}.json`, "utf8")) as Record<string, string>;
      await page.goto(`/settings/account?lng=${language}`);
      await hydrated(page);
      const row = page.getByRole("navigation", { name: texts["Settings"] }).getByRole("list");
      // The lines each label takes: the distinct tops of its text's boxes.
      const linesPerTab = await row.getByRole("link").evaluateAll((links) =>
        links.map((link) => {
          const text = document.createRange();
          text.selectNodeContents(link);
          return [link.textContent, new Set([...text.getClientRects()].map((box) => Math.round(box.top))).size];
        }),
      );
      expect(linesPerTab).toEqual(
        [
          "Account",
          "Security",
          "Privacy and data",
          "Profile",
          "Subscriptions",
          "Language",
          "Notifications",
          "Blocked users",
        ].map((key) => [texts[key], 1]),
      );
      expect(await row.evaluate((list) => list.scrollWidth > list.clientWidth)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }
  });
});
