import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { authenticatorCode } from "../support/totp";
import {
  apiAs,
  browserForThisFile,
  createAccount,
  hydrated,
  LOOKS,
  loginPageLoad,
  newContext,
  newPage,
  openIn,
  seriousViolations,
  signedInPage,
  signedInPageIn,
  speakLanguageOf,
  storedToken,
  textIn,
} from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
/** The account that turned two-step sign-in on in the first test. */
let member: Account | undefined;

/** Fills in the password step of /login; with two-step sign-in on, the code step follows. */
async function passwordStep(page: Page, account: Account, t: (key: string) => string = (key) => key) {
  await page.goto("/login");
  await hydrated(page);
  await page.getByLabel(t("Email or username")).fill(account.email);
  await page.getByLabel(t("Password")).fill(account.password);
  await page.getByRole("button", { name: t("Sign in") }).click();
  await page.getByRole("heading", { name: t("Two-step sign-in") }).waitFor();
}

/** Six digits that are none of the codes around now: a guess sure to be wrong. */
async function wrongCode(secret: string): Promise<string> {
  const now = Date.now();
  const right = await Promise.all([-1, 0, 1, 2].map((step) => authenticatorCode(secret, now + step * 30_000)));
  for (let guess = 100_000; ; guess++) if (!right.includes(String(guess))) return String(guess);
}

async function signOut(page: Page) {
  const loginLoaded = loginPageLoad(page);
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await loginLoaded;
  expect(await storedToken(page)).toBeNull();
}

describe("two-step sign-in", () => {
  it("is turned on with a code from the secret shown; then signing in asks for a code, or takes a recovery code once", async () => {
    const account = await createAccount();
    const { page } = await signedInPage(browser(), account);
    await page.goto("/settings/security");
    await hydrated(page);
    const section = page.getByRole("region", { name: "Two-step sign-in" });
    await section.getByRole("button", { name: "Turn on" }).click();
    await section.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    const secret = (await section.getByTestId("two-step-secret").textContent())!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    await section.getByLabel("Code from the app").fill(await wrongCode(secret));
    await section.getByRole("button", { name: "Confirm and turn on" }).click();
    await section.getByText("That code is not right. Check it and try again.").waitFor();
    const confirmedAt = Date.now();
    await section.getByLabel("Code from the app").fill(await authenticatorCode(secret, confirmedAt));
    await section.getByRole("button", { name: "Confirm and turn on" }).click();
    const codeList = section.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await codeList.last().waitFor();
    const codes = await codeList.allTextContents();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    await section.getByRole("button", { name: "I have saved them" }).click();
    await section.getByText("Two-step sign-in is on. Recovery codes left: 10.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await signOut(page);

    // The code the app shows next: a step the confirmation did not use (each step's code works once).
    await passwordStep(page, account);
    expect(await storedToken(page)).toBeNull();
    await page.getByLabel("Code", { exact: true }).fill(await authenticatorCode(secret, confirmedAt + 30_000));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL("**/home");
    expect(await storedToken(page)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await hydrated(page);
    await signOut(page);

    await passwordStep(page, account);
    await page.getByRole("button", { name: "Use a recovery code" }).click();
    await page.getByLabel("Recovery code").fill(codes[0]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL("**/home");
    await hydrated(page);
    await signOut(page);

    // The same recovery code a second time is refused, and the step stays for another try.
    await passwordStep(page, account);
    await page.getByRole("button", { name: "Use a recovery code" }).click();
    await page.getByLabel("Recovery code").fill(codes[0]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByText("That code is not right. Check it and try again.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    member = account;
  });

  it("works without JavaScript: the form shows the code step, keeps it after a wrong code, and a trusted device skips it", async () => {
    const account = await createAccount();
    const { secret } = (await apiAs(account, "POST", "/me/two-step/setup")) as { secret: string };
    const confirmedAt = Date.now();
    await apiAs(account, "POST", "/me/two-step/confirm", { code: await authenticatorCode(secret, confirmedAt) });

    const context = await newContext(browser(), { javaScriptEnabled: false });
    const page = await context.newPage();
    const signIn = async () => {
      await page.goto("/login");
      await page.getByLabel("Email or username").fill(account.email);
      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Sign in" }).click();
    };
    await signIn();
    await page.getByRole("heading", { name: "Two-step sign-in" }).waitFor();
    await page.getByLabel("Code", { exact: true }).fill(await wrongCode(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByText("That code is not right. Check it and try again.").waitFor();
    await page.getByLabel("Code", { exact: true }).fill(await authenticatorCode(secret, confirmedAt + 30_000));
    await page.getByLabel("Trust this device for 30 days").check();
    await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST" && response.status() === 200),
      page.getByRole("button", { name: "Verify" }).click(),
    ]);
    const cookies = await context.cookies();
    expect(cookies.map((cookie) => cookie.name).sort()).toEqual(
      expect.arrayContaining(["__Host-session", "__Host-trusted-device"]),
    );

    // Signed out (the session cookie gone, the device's trust kept): the password alone signs in on this device.
    await context.clearCookies({ name: "__Host-session" });
    const answered = page.waitForResponse(
      (response) => response.request().method() === "POST" && response.status() === 200,
    );
    await signIn();
    await answered;
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.getByRole("heading", { name: "Two-step sign-in" }).count()).toBe(0);
    await page.goto("/settings/security");
    expect(new URL(page.url()).pathname).toBe("/settings/security");
  });

  for (const variant of LOOKS) {
    it(`the settings section and the code step pass axe (${variant.name})`, async () => {
      if (!member) throw new Error("the first test did not turn two-step sign-in on");
      const t = textIn(variant);
      const fresh = await createAccount();
      const settings = await signedInPageIn(browser(), fresh, variant);
      await openIn(settings.page, "/settings/security", variant);
      await settings.page.getByRole("button", { name: t("Turn on") }).click();
      await settings.page.getByRole("img", { name: t("QR code for your authenticator app") }).waitFor();
      expect(await seriousViolations(settings.page)).toEqual([]);

      const codeStep = await newPage(browser());
      await speakLanguageOf(codeStep.context, variant);
      await codeStep.page.emulateMedia({ colorScheme: variant.colorScheme });
      await passwordStep(codeStep.page, member, t);
      expect(await seriousViolations(codeStep.page)).toEqual([]);
    });
  }
});
