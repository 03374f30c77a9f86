import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { inject } from "vitest";

export const baseURL = () => inject("baseURL");

/** Debian's Chromium with the flags this machine needs (no network but loopback, no sandbox as root). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
}

export async function newPage(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport, locale: "en-US" });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("[page error]", page.url(), error.stack));
  return { context, page };
}

let counter = 0;
export const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 5)}`;

export function buildPerson(overrides: Partial<Record<"username" | "name" | "email" | "password" | "dateOfBirth" | "accountType", string>> = {}) {
  const id = unique();
  return {
    username: `e2e_${id}`,
    name: "E2E Person",
    email: `e2e_${id}@example.test`,
    password: `a long passphrase ${id}`,
    dateOfBirth: "1992-03-04",
    accountType: "male",
    ...overrides,
  };
}

/** Seeds an account straight through the API (not the form), as the style guide asks of test set-up. */
export async function createAccount(overrides: Parameters<typeof buildPerson>[0] = {}) {
  const person = buildPerson(overrides);
  const response = await fetch(`${baseURL()}/api/signup`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(person) });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${await response.text()}`);
  const { token } = (await response.json()) as { token: string };
  return { ...person, token };
}

/** The newest link in the newest message to `address`, read from the development mailbox page. */
export async function latestLinkTo(address: string, pathPrefix: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const html = await (await fetch(`${baseURL()}/dev/mailbox?to=${encodeURIComponent(address)}`)).text();
    const link = [...html.matchAll(/href="(https?:\/\/[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&")).find((href) => new URL(href).pathname.startsWith(pathPrefix));
    if (link) return link;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ${pathPrefix} link mailed to ${address}`);
}

export const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem("token"));
