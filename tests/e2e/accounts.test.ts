import { describe, expect, it } from "vitest";
import {
  buildSignUp,
  createAccount,
  latestLinkTo,
  browserForThisFile,
  hydrated,
  newPage,
  signedInPage,
  storedToken,
  loginPageLoad,
} from "./support";

const browser = browserForThisFile();

describe("accounts, as a person uses them", () => {
  it("Home's request to verify the email goes once the link is opened in another tab, or on another device", async () => {
    for (const where of ["another tab", "another device"] as const) {
      const person = await createAccount();
      const { page, context } = await signedInPage(browser(), person);
      await page.goto("/home");
      await hydrated(page);
      const notice = page.getByText("Please verify your email address.");
      await notice.waitFor();

      const link = await latestLinkTo(person.email, "/email/verify/");
      const elsewhere = where === "another tab" ? await context.newPage() : (await newPage(browser())).page;
      await elsewhere.goto(link);
      await elsewhere.getByText("Your email address is verified.").waitFor();
      // Back on the first tab (another device's verification is noticed when the person returns to it).
      if (where === "another device") await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
      await notice.waitFor({ state: "detached" });
      await page.getByRole("heading", { name: `Welcome, ${person.name}!` }).waitFor();
    }
  });

  it("the sign-up form says what is wrong with a malformed email and a name that hides its direction", async () => {
    const person = buildSignUp();
    const { page } = await newPage(browser());
    await page.goto("/signup");
    await hydrated(page);
    await page.getByLabel("Username").fill(person.username);
    // Pasted, as a spoofer would: it reads "Annexe.png" but is stored as "Ann" + an override + "gnp.exe".
    await page.getByLabel("Name", { exact: true }).fill("Ann\u202Egnp.exe");
    await page.getByLabel("Email address").fill("person@");
    await page.getByLabel("Password").fill(person.password);
    await page.getByLabel("Date of birth").fill(person.dateOfBirth);
    await page.getByLabel("Account type").selectOption({ label: "Male" });
    await page.getByRole("button", { name: "Sign up" }).click();

    await expect.poll(() => page.getByText("Enter a valid email address, such as name@example.com.").count()).toBe(1);
    expect(await page.getByText("Names may not contain invisible characters or text-direction controls.").count()).toBe(
      1,
    );
    expect(await page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByText("Invalid value").count()).toBe(0);
  });

  it("signs up (after fixing an under-18 date and a taken username), verifies the email from the mailbox, signs out and back in", async () => {
    const taken = await createAccount();
    const person = buildSignUp();
    const { page, context } = await newPage(browser());

    await page.goto("/");
    await page.getByRole("link", { name: "Sign up" }).first().click();
    await page.waitForURL("**/signup");
    await hydrated(page);
    await page.getByLabel("Username").fill(taken.username.toUpperCase());
    await page.getByLabel("Name", { exact: true }).fill(person.name);
    await page.getByLabel("Email address").fill(person.email);
    await page.getByLabel("Password").fill(person.password);
    await page.getByLabel("Date of birth").fill(`${new Date().getFullYear() - 17}-01-01`);
    await page.getByLabel("Account type").selectOption({ label: "Male" });
    await page.getByRole("button", { name: "Sign up" }).click();

    await expect.poll(() => page.getByText("Your age must be over 18+").count()).toBe(1);
    await expect.poll(() => page.getByText("The username has already been taken").count()).toBe(1);
    expect(await page.getByLabel("Date of birth").getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("Username").fill(person.username);
    await page.getByLabel("Date of birth").fill(person.dateOfBirth);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL("**/email/verify");
    await page.getByRole("heading", { name: "Verify your email address" }).waitFor();
    expect(await storedToken(page)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await page.getByRole("link", { name: "Check status" }).click();
    await page.getByText("Your email didn't verified yet.").waitFor();
    await page.getByRole("button", { name: "Resend" }).click();
    await page.getByText("A new verification link has been sent to your email address.").waitFor();

    // The link from the development mailbox, clicked as in a mail client.
    await page.goto(`/dev/mailbox?to=${encodeURIComponent(person.email)}`);
    await page.locator('[data-testid="mail"]').first().getByRole("link").click();
    await page.getByText("Your email address is verified.").waitFor();
    await page.getByRole("link", { name: "Continue" }).click();
    await page.waitForURL("**/home");
    await page.getByRole("heading", { name: `Welcome, ${person.name}!` }).waitFor();
    expect(await page.getByText("Please verify your email address.").count()).toBe(0);
    await hydrated(page);

    const loginLoaded = loginPageLoad(page);
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await loginLoaded;
    expect(await storedToken(page)).toBeNull();
    await page.goto("/home");
    await page.waitForURL("**/login?redirectTo=%2Fhome");
    await hydrated(page);

    await page.getByLabel("Email or username").fill(person.username);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("The provided credentials are incorrect").waitFor();
    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/home");
    expect(await storedToken(page)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await context.close();
  });

  it("resets a forgotten password, which signs out the other devices", async () => {
    const account = await createAccount();
    const other = await newPage(browser());
    await other.page.goto("/login");
    await other.page.getByLabel("Email or username").fill(account.email);
    await other.page.getByLabel("Password").fill(account.password);
    await other.page.getByRole("button", { name: "Sign in" }).click();
    await other.page.waitForURL("**/home");

    const { page, context } = await newPage(browser());
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL("**/forgot-password");
    // A refusal of the field is written once, under it, not again above the form.
    await page.getByLabel("Email address").fill("bogus");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.locator('[aria-invalid="true"]').waitFor();
    expect(await page.getByText("Enter a valid email address, such as name@example.com.").count()).toBe(1);
    await page.getByLabel("Email address").fill(account.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText("If an account exists for that address, we have sent it a link.").waitFor();

    await page.goto(await latestLinkTo(account.email, "/reset-password/"));
    await hydrated(page);
    await page.getByLabel("New password", { exact: true }).fill("my fresh new passphrase");
    await page.getByLabel("Confirm new password").fill("my fresh new passphrase!");
    await page.getByRole("button", { name: "Reset password" }).click();
    await page.getByText("The passwords do not match.").waitFor();
    await page.getByLabel("Confirm new password").fill("my fresh new passphrase");
    await page.getByRole("button", { name: "Reset password" }).click();
    await page.waitForURL("**/login?reset=1");
    await page.getByText("Your password has been changed. Please sign in.").waitFor();

    // The same link a second time is dead.
    const link = await latestLinkTo(account.email, "/reset-password/");
    await page.goto(link);
    await page.getByText("This link is invalid or has expired.").waitFor();

    // The other device's session has ended.
    await other.page.goto("/home");
    await other.page.waitForURL("**/login?redirectTo=%2Fhome");
    await other.context.close();

    await page.goto("/login");
    await page.getByLabel("Email or username").fill(account.email);
    await page.getByLabel("Password").fill("my fresh new passphrase");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/home");
    await context.close();
  });

  it("signs in with a magic link from the mailbox, once", async () => {
    const account = await createAccount();
    const { page, context } = await newPage(browser());
    await page.goto("/login");
    await page.getByText("Email me a sign-in link instead").click();
    await page.getByLabel("Email address").fill(account.email);
    await page.getByRole("button", { name: "Send me a link" }).click();
    await page.getByText("If an account exists for that address, we have sent it a link.").waitFor();

    const link = await latestLinkTo(account.email, "/login/withToken");
    await page.goto(link);
    await page.waitForURL("**/home");
    expect(await storedToken(page)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await context.close();

    const again = await newPage(browser());
    await again.page.goto(link);
    await again.page.getByText("This link is invalid or has expired.").waitFor();
    await again.context.close();
  });

  it("a 401 from the API forgets the stored token and lands on /login", async () => {
    const { page, context } = await newPage(browser());
    // The token is stored from a file of the site that runs none of the app's code (no request of the app's may
    // meet the 401 and move on to /login while the test still stores it).
    await page.goto("/manifest.webmanifest");
    await page.evaluate(() => localStorage.setItem("token", "revoked-or-made-up-token-0000000000000000000"));
    // The 401 can send the page on to /login before the page has finished loading: wait for the navigations to
    // commit, not for load events that an interrupted page never fires.
    await page.goto("/", { waitUntil: "commit" });
    await page.waitForURL("**/login", { waitUntil: "commit" });
    await page.waitForLoadState("domcontentloaded");
    expect(await storedToken(page)).toBeNull();
    await context.close();
  });

  it("a stored token of a live session is enough: GET /me marks the visitor signed in", async () => {
    const account = await createAccount();
    const { page, context } = await newPage(browser());
    await page.goto("/login");
    await hydrated(page);
    await page.evaluate((token) => localStorage.setItem("token", token), account.token);
    const me = page.waitForResponse((response) => response.url().endsWith("/api/me"));
    // Only the reload's start is awaited: once /me says signed in, the sign-in page moves on by itself, which
    // may abort a reload still waiting for "load".
    await page.reload({ waitUntil: "commit" });
    const response = await me;
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toBe(`Bearer ${account.token}`);
    expect(await storedToken(page)).toBe(account.token);
    await context.close();
  });
});
