import { describe, expect, it } from "vitest";
import {
  browserForThisFile,
  createAccount,
  hydrated,
  LOOKS,
  keepToken,
  newContext,
  openPage,
  openIn,
  seriousViolations,
  signedInPage,
  signedInPageIn,
} from "./support";

const browser = browserForThisFile();

const FIREFOX_ON_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0";

describe("Settings → Security → Signed-in devices", () => {
  it("one browser signs the other out: the other's socket closes and it lands on /login", async () => {
    const account = await createAccount();
    // The other device: a phone in France, signed in like a browser after the form.
    const phoneContext = await newContext(browser(), {
      viewport: { width: 390, height: 844 },
      userAgent: FIREFOX_ON_ANDROID,
      extraHTTPHeaders: { "CF-IPCountry": "FR" },
    });
    const login = await phoneContext.request.post("/api/login", {
      data: { login: account.email, password: account.password },
    });
    expect(login.status()).toBe(200);
    await keepToken(phoneContext, ((await login.json()) as { token: string }).token);
    const phone = await openPage(phoneContext);
    // Its updates socket goes through the test, which hears how the server closes it.
    const serverClosedWith: number[] = [];
    let socketOpened = false;
    await phone.routeWebSocket(/\/ws\/updates/, (socket) => {
      const server = socket.connectToServer();
      socketOpened = true;
      server.onClose((code, reason) => {
        serverClosedWith.push(code ?? 0);
        void socket.close({ code, reason });
      });
    });
    await phone.goto("/home");
    await hydrated(phone);
    await expect.poll(() => socketOpened, { timeout: 10_000 }).toBe(true);

    const { page } = await signedInPage(browser(), account);
    await page.goto("/settings/security");
    await hydrated(page);
    const section = page.getByRole("region", { name: "Signed-in devices" });
    const rows = section.getByTestId("signed-in-device");
    // This device, the phone, and the sign-up's session.
    await expect.poll(() => rows.count()).toBe(3);
    await expect.poll(() => rows.first().textContent()).toContain("This device");
    const phoneRow = rows.filter({ hasText: "Firefox on Android" });
    expect(await phoneRow.textContent()).toContain("France");
    expect(await phoneRow.getByText("This device").count()).toBe(0);

    await phoneRow.getByRole("button", { name: "Sign out" }).click();
    await section.getByRole("status").getByText("The device has been signed out.").waitFor();
    await expect.poll(() => rows.count()).toBe(2);

    // The phone's socket is closed as its session's end, and the phone leaves for /login by itself.
    await expect.poll(() => serverClosedWith, { timeout: 10_000 }).toContain(4401);
    await phone.waitForURL(/\/login/, { timeout: 10_000 });
    await phone.goto("/settings/security");
    await phone.waitForURL(/\/login/);
    await phone.getByRole("button", { name: "Sign in" }).waitFor();

    // Sign out all other devices leaves this one alone.
    await section.getByRole("button", { name: "Sign out all other devices" }).click();
    await section.getByRole("status").getByText("Every other device has been signed out.").waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await section.getByRole("button", { name: "Sign out all other devices" }).count()).toBe(0);
    await page.reload();
    await hydrated(page);
    await expect.poll(() => rows.count()).toBe(1);
  });

  it("has no serious or critical axe finding in light, dark and Arabic", async () => {
    const account = await createAccount();
    for (const look of LOOKS) {
      const { page } = await signedInPageIn(browser(), account, look);
      await openIn(page, "/settings/security", look);
      await page.getByTestId("signed-in-device").first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    }
  });
});
