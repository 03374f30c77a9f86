import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  browserForThisFile,
  createAccount,
  hydrated,
  loginPageLoad,
  LOOKS,
  openIn,
  seriousViolations,
  signedInPage,
  signedInPageIn,
  sql,
  storedToken,
  textIn,
  within,
} from "./support";

const browser = browserForThisFile();

/**
 * Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain) for the page: a platform key that holds
 * discoverable credentials and verifies its user, answering without a prompt. It stays with the tab across
 * navigations, so a key made in Settings signs in on /login.
 */
async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await within(cdp.send("WebAuthn.enable", { enableUI: false }), "CDP to enable WebAuthn");
  const { authenticatorId } = await within(
    cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }),
    "CDP to add a virtual authenticator",
  );
  return {
    credentials: async () =>
      (await within(cdp.send("WebAuthn.getCredentials", { authenticatorId }), "CDP to list the credentials"))
        .credentials,
  };
}

describe("passkeys", () => {
  it("adds a passkey in Settings behind the password, signs out, signs in with it from /login, renames and removes it", async () => {
    const account = await createAccount();
    const { context, page } = await signedInPage(browser(), account);
    const authenticator = await addVirtualAuthenticator(context, page);

    await page.goto("/settings/security");
    await hydrated(page);
    const section = page.getByRole("region", { name: "Passkeys" });
    await section.getByText("You have no passkeys yet.").waitFor();
    await section.getByRole("button", { name: "Add a passkey" }).click();
    await section.getByLabel("Name for this passkey").fill("Test laptop");
    await section.getByLabel("Your password").fill("not my password");
    await section.getByRole("button", { name: "Continue" }).click();
    await section.getByText("Wrong password").waitFor();
    expect(await authenticator.credentials()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    await section.getByLabel("Your password").fill(account.password);
    await section.getByRole("button", { name: "Continue" }).click();
    await section.getByRole("status").getByText("Passkey “Test laptop” added.").waitFor();
    const item = section.getByTestId("passkey");
    await item.getByText("Test laptop").waitFor();
    await item.getByText("Not used yet").waitFor();
    const [credential] = await authenticator.credentials();
    expect(credential).toMatchObject({ isResidentCredential: true });
    expect(await seriousViolations(page)).toEqual([]);

    const loginLoaded = loginPageLoad(page);
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await loginLoaded;
    expect(await storedToken(page)).toBeNull();
    await hydrated(page);
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.waitForURL("**/home");
    expect(await storedToken(page)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The authenticator signed once more: this sign-in was its assertion.
    expect((await authenticator.credentials())[0]!.signCount).toBe(credential!.signCount + 1);

    await page.goto("/settings/security");
    await hydrated(page);
    await item.getByText("Last used").waitFor();
    await item.getByRole("button", { name: "Rename the passkey “Test laptop”" }).click();
    await item.getByLabel("New name").fill("Work laptop");
    await item.getByRole("button", { name: "Save" }).click();
    await section.getByRole("status").getByText("Passkey renamed to “Work laptop”.").waitFor();
    await item.getByText("Work laptop", { exact: true }).waitFor();

    page.once("dialog", (dialog) => void dialog.accept());
    await item.getByRole("button", { name: "Remove the passkey “Work laptop”" }).click();
    await section.getByText("You have no passkeys yet.").waitFor();

    // The key the authenticator still holds no longer signs in: /login says so and stays.
    const loggedOut = loginPageLoad(page);
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await loggedOut;
    await hydrated(page);
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.getByText("This passkey could not sign you in. Try another way to sign in.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
  });
});

describe("Settings → Security → Passkeys has no serious or critical axe finding", () => {
  let account: Awaited<ReturnType<typeof createAccount>>;
  beforeAll(async () => {
    account = await createAccount();
    const at = new Date().toISOString();
    // A listed key, used once: what the section shows (its key material is never read here).
    await sql(
      `INSERT INTO passkeys (user_id, credential_id, public_key, counter, device_type, backed_up, name, created_at, last_used_at)
       SELECT id, 'e2e-${account.username}', 'pQECAyYgASFYIA', 1, 'multiDevice', 1, 'Phone', '${at}', '${at}'
       FROM users WHERE username = '${account.username}'`,
    );
    // await sql() blocks the event loop for seconds: let a kept-alive socket the server closed meanwhile be noticed.
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  for (const variant of LOOKS.filter((look) => look.name !== "light")) {
    it(`with a passkey and the form to add one open (${variant.name})`, async () => {
      const tr = textIn(variant);
      const { page } = await signedInPageIn(browser(), account, variant);
      await openIn(page, "/settings/security", variant);
      const section = page.getByRole("region", { name: tr("Passkeys") });
      await section.getByTestId("passkey").getByText("Phone").waitFor();
      await section.getByRole("button", { name: tr("Add a passkey") }).click();
      await section.getByLabel(tr("Your password")).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
