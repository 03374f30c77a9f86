import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, inject } from "vitest";
import { E2E_STATE_DIR } from "./global-setup";
import { buildSignUp, unique, type SignUpBody } from "../support/people";

const execFileAsync = promisify(execFile);

export { buildSignUp, unique };

export const baseURL = () => inject("baseURL");

/** Debian's Chromium with the flags this machine needs (no network but loopback, no sandbox as root). */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
};

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(CHROMIUM);
}

/** One browser per test file: launched before its tests, closed after. */
export function browserForThisFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("the browser is not running yet");
    return browser;
  };
}

export async function newPage(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport, locale: "en-US" });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("[page error]", page.url(), error.stack));
  return { context, page };
}

/** Seeds an account straight through the API (not the form), as the style guide asks of test set-up. */
export async function createAccount(overrides: Partial<SignUpBody> = {}) {
  const person = buildSignUp(overrides);
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

/**
 * Runs SQL against the running server's local D1, for set-up that has no screen yet (making a creator,
 * seeding a conversation). Slow (a wrangler process per call): batch statements.
 */
/**
 * Runs SQL against the e2e server's local D1. Asynchronous on purpose: while wrangler runs (seconds), the event
 * loop must keep serving, or the server closes idle keep-alive sockets unnoticed and the next fetch fails.
 */
export async function sql(statements: string): Promise<void> {
  await execFileAsync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", E2E_STATE_DIR, "--command", statements], {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
  });
}

/** A page whose browser is signed in as `account` (session cookie and the stored token, as after the form). */
export async function signedInPage(browser: Browser, account: { email: string; password: string; token: string }, viewport = { width: 1440, height: 900 }, options: { colorScheme?: "light" | "dark"; locale?: string } = {}) {
  const context = await browser.newContext({ baseURL: baseURL(), viewport, locale: options.locale ?? "en-US", colorScheme: options.colorScheme ?? "light" });
  const login = await context.request.post("/api/login", { data: { login: account.email, password: account.password } });
  if (!login.ok()) throw new Error(`login failed: ${login.status()}`);
  const { token } = (await login.json()) as { token: string };
  await context.addInitScript((value) => localStorage.setItem("token", value), token);
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("[page error]", page.url(), error.stack));
  return { context, page, token };
}

const AXE_SOURCE = readFileSync("node_modules/axe-core/axe.min.js", "utf8");

/** axe-core's serious and critical WCAG 2.1 A/AA findings on the page, as "rule (targets)" lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type Violation = { id: string; impact: string | null; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe;
    const { violations } = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  });
}
