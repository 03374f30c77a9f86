import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type Request,
} from "playwright-core";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, expect, inject, onTestFinished } from "vitest";
import { E2E_SERVER_LOG, E2E_STATE_DIR } from "./global-setup";
import { boundedWait } from "../support/bounded-wait";
import { buildSignUp, unique, type SignUpBody } from "../support/people";

export { buildSignUp, unique };

export const baseURL = () => inject("baseURL");

/**
 * How long a helper here waits for the page or the server before failing with what it waited for: generous (a
 * busy machine only makes a passing wait slower), and under the tests' own time-out (vitest.e2e.config.ts, 60 s),
 * which would say nothing of what was awaited.
 */
const WAIT_MS = 30_000;

/**
 * `promise`'s value, or an error naming `what` after WAIT_MS: for the waits Playwright does not bound (a script
 * run in the page or its service worker that awaits an event or the network, a CDP event, a server's answer).
 */
export const within = <T>(promise: Promise<T>, what: string): Promise<T> => boundedWait(promise, what, WAIT_MS);

/**
 * fetch for a test (Node's own waits minutes for an answer's headers), failing after WAIT_MS with the request it
 * was waiting for. The bound covers reading the body too.
 */
export async function fetchWithin(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(WAIT_MS) });
  } catch (error) {
    if (error instanceof DOMException && error.name === "TimeoutError")
      throw new Error(`${init.method ?? "GET"} ${url} did not answer within ${WAIT_MS / 1000} s`, { cause: error });
    throw error;
  }
}

/** Debian's Chromium with the flags this machine needs (no network but loopback, no sandbox as root). */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};

/**
 * `E2E_NETLOG=<dir>` has each browser write Chromium's net log there (one file a launch): which socket a request
 * that never "loaded" waited for or was sent on, and what came back. A diagnosis aid, off by default.
 */
function launchBrowser(): Promise<Browser> {
  const netLogDir = process.env.E2E_NETLOG;
  if (!netLogDir) return chromium.launch(CHROMIUM);
  mkdirSync(netLogDir, { recursive: true });
  const file = join(netLogDir, `${basename(expect.getState().testPath ?? "browser")}-${Date.now()}.json`);
  return chromium.launch({
    ...CHROMIUM,
    args: [...CHROMIUM.args, `--log-net-log=${file}`, "--net-log-capture-mode=Default"],
  });
}

/** One browser per test file: launched before its tests, closed after. */
export function browserForThisFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    // A context Chromium never disposed (closeWithin) can hold the browser's close up too: the process is ended.
    const closing = browser?.close();
    const ended = await Promise.race([
      closing?.then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), CONTEXT_CLOSE_MS)),
    ]);
    if (ended === false) console.error("[the browser did not close in time]");
  }, 60_000);
  return () => {
    if (!browser) throw new Error("the browser is not running yet");
    return browser;
  };
}

/** Where a failing test leaves its trace and screenshots (npm test starts by deleting test-results/). */
const FAILURE_ARTIFACTS_DIR = "test-results/e2e";

const artifactName = (file: string, test: string) =>
  `${basename(file, ".test.ts")}--${test}`.replace(/[^\w.-]+/g, "-").slice(0, 150);

/** How many contexts each test (by name) has opened so far. */
const contextsOpened = new Map<string, number>();

/**
 * Ties `context` to the running test: it records a Playwright trace (screenshots and DOM snapshots) and is closed
 * when the test ends, passed or failed, so a failing test cannot leak it. If the test failed, the trace and a
 * screenshot of each of its pages are kept: test-results/e2e/<file>--<test>.zip and .png (-2.png, … for further
 * pages; a test's further contexts add -c2, -c3, … to the name); `npx playwright show-trace <zip>` replays it.
 * `cleanup` runs after the close (a profile to delete).
 * Must be called inside a test; newContext, newPage and signedInPage call it.
 */
export async function traceUntilTestEnds(context: BrowserContext, cleanup?: () => Promise<void>): Promise<void> {
  // A test's second browser (a creator and a fan) keeps its evidence beside the first's, not over it: -c2, -c3, …
  const testName = expect.getState().currentTestName ?? "";
  const nth = (contextsOpened.get(testName) ?? 0) + 1;
  contextsOpened.set(testName, nth);
  let closed = false;
  context.on("close", () => {
    closed = true;
  });
  // Network and actions only: with DOM snapshots on, a page's last module script (root-*.js) now and then never
  // finished loading (page.goto waited 30 s for a "load" that never came, two runs in two); the screencast costs
  // about a tenth of the tier's time, and a failed test keeps full-page screenshots anyway (keepEvidence).
  // E2E_TRACE_SCREENSHOTS=1 puts the screencast back into the traces.
  await context.tracing.start({ screenshots: process.env.E2E_TRACE_SCREENSHOTS === "1", snapshots: false });
  onTestFinished(async ({ task }) => {
    try {
      // A test may close its context itself; a closed context has nothing left to keep.
      if (closed) return;
      if (task.result?.state === "fail")
        await keepEvidence(
          context,
          `${FAILURE_ARTIFACTS_DIR}/${artifactName(task.file.name, task.name)}${nth === 1 ? "" : `-c${nth}`}`,
        );
      await closeWithin(context);
    } finally {
      await cleanup?.();
    }
  });
}

/**
 * Closes a context, its pages first. Chromium now and then never answers the disposal of a context whose service
 * worker is running (puppeteer/puppeteer#11627: the test had passed, and its hook waited 60 s): after
 * CONTEXT_CLOSE_MS it is left to the browser's own close at the end of the file, and said so on the output.
 */
const CONTEXT_CLOSE_MS = 15_000;
async function closeWithin(context: BrowserContext) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<"gave up">((resolve) => (timer = setTimeout(() => resolve("gave up"), CONTEXT_CLOSE_MS)));
  // The pages' own close can hang the same way: the time limit covers both.
  const closing = Promise.all(
    context.pages().map((page) => page.close({ runBeforeUnload: false }).catch(() => undefined)),
  ).then(() => context.close());
  const outcome = await Promise.race([closing.then(() => "closed" as const), gaveUp]);
  clearTimeout(timer);
  if (outcome === "gave up")
    console.error(
      `[a browser context did not close within ${CONTEXT_CLOSE_MS} ms; the browser's close at the end of the file ends it]`,
    );
}

/**
 * Screenshots and trace of a failed test. A test that timed out still runs on and may close its context meanwhile:
 * what cannot be kept any more is reported, never allowed to hide the test's own failure.
 */
async function keepEvidence(context: BrowserContext, base: string) {
  mkdirSync(FAILURE_ARTIFACTS_DIR, { recursive: true });
  const report = (what: string) => (error: unknown) =>
    console.error(`[${what} not kept]`, base, error instanceof Error ? error.message : error);
  // What the browser still waited for, and what the server last logged: a page that never "loaded" shows
  // whether a request never reached the server or never got its answer.
  for (const page of context.pages()) {
    const waiting = [...(unfinished.get(page) ?? new Map<string, number>())].map(
      ([url, since]) => `${url} (${Date.now() - since} ms)`,
    );
    if (waiting.length > 0) console.error(`[requests without an answer on ${page.url()}]\n  ${waiting.join("\n  ")}`);
  }
  if (existsSync(E2E_SERVER_LOG))
    console.error(
      `[the server's last lines]\n${readFileSync(E2E_SERVER_LOG, "utf8").split("\n").slice(-40).join("\n")}`,
    );
  for (const [index, page] of context.pages().entries()) {
    await page
      .screenshot({ path: `${base}${index === 0 ? "" : `-${index + 1}`}.png`, fullPage: true, timeout: 10_000 })
      .catch(report("screenshot"));
  }
  await context.tracing.stop({ path: `${base}.zip` }).catch(report("trace"));
}

/**
 * A fresh (incognito) context for the running test, traced and closed when the test ends (traceUntilTestEnds).
 * Without a service worker unless the test asks for one (`serviceWorkers: "allow"`): installing it fetches every
 * built file at once, work that a test of anything else would share the machine with. The tests of the worker
 * itself (offline, the outbox, updates, push) allow it.
 */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseURL(),
    locale: "en-US",
    serviceWorkers: "block",
    ...options,
  });
  await traceUntilTestEnds(context);
  return context;
}

/** Per page, the requests sent and not yet answered (url → when sent), for a failed test's report. */
const unfinished = new WeakMap<Page, Map<string, number>>();
/** Per page, its JavaScript files that failed or were answered with an error, for a page that never hydrates. */
const scriptFailures = new WeakMap<Page, string[]>();
const isScript = (url: string) => /\.m?js$/.test(new URL(url).pathname);

/**
 * React's errors for a page whose HTML and first client render differ (hydration failed, text mismatch, recovered
 * by rendering on the client): the server's render was wrong for a moment, or for a reader without JavaScript.
 */
const HYDRATION_ERROR = /Minified React error #(418|419|421|422|423|425)\b/;

/**
 * A page that reports its uncaught errors on the test's output, and keeps track of its unanswered requests. A
 * hydration error fails the test that opened the page (must be called inside a test).
 */
export async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const hydrationErrors: string[] = [];
  page.on("pageerror", (error) => {
    console.error("[page error]", page.url(), error.stack);
    if (HYDRATION_ERROR.test(error.message)) hydrationErrors.push(`${page.url()}: ${error.message.slice(0, 40)}`);
  });
  onTestFinished(() => {
    if (hydrationErrors.length > 0)
      throw new Error(
        `the server's render and the hydration differed:\n  ${[...new Set(hydrationErrors)].join("\n  ")}`,
      );
  });
  const waiting = new Map<string, number>();
  unfinished.set(page, waiting);
  page.on("request", (request) => waiting.set(`${request.method()} ${request.url()}`, Date.now()));
  const answered = (request: Request) => waiting.delete(`${request.method()} ${request.url()}`);
  page.on("requestfinished", answered);
  page.on("requestfailed", answered);
  const failedScripts: string[] = [];
  scriptFailures.set(page, failedScripts);
  page.on("requestfailed", (request) => {
    if (isScript(request.url())) failedScripts.push(`${request.url()} (${request.failure()?.errorText ?? "failed"})`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400 && isScript(response.url()))
      failedScripts.push(`${response.url()} (${response.status()})`);
  });
  return page;
}

export async function newPage(
  browser: Browser,
  viewport = { width: 1280, height: 900 },
  options: Pick<BrowserContextOptions, "serviceWorkers" | "locale"> = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, { viewport, ...options });
  return { context, page: await openPage(context) };
}

/**
 * The full load of /login that signing out ends with (app/lib/offline.ts, leaveForLogin). The app may show /login
 * in the old page first, so waiting for the address is not enough: ask for this before signing out, then read the
 * page it brings.
 */
export const loginPageLoad = (page: Page) =>
  page.waitForEvent("load", { predicate: (loaded) => new URL(loaded.url()).pathname === "/login" });

/**
 * Resolves once React has hydrated the page (app/root.tsx marks <html data-hydrated>): from then on typing and
 * clicking reach the app's handlers. Wait for this after a navigation instead of for the network to go quiet.
 */
export async function hydrated(page: Page): Promise<void> {
  try {
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: WAIT_MS });
  } catch (error) {
    // Nothing retries a module that failed or never came: the page stays as the server wrote it. Say which.
    const scripts = scriptFailures.get(page) ?? [];
    const waiting = [...(unfinished.get(page) ?? new Map<string, number>())].map(
      ([url, since]) => `${url} (${Date.now() - since} ms)`,
    );
    throw new Error(
      `${page.url()} did not hydrate (no <html data-hydrated>) within ${WAIT_MS / 1000} s.\n  scripts that failed: ${scripts.join("; ") || "none"}\n  requests without an answer: ${waiting.join("; ") || "none"}`,
      { cause: error },
    );
  }
}

/**
 * Records, from the next navigation of `page` on, every Intl.DateTimeFormat and Intl.NumberFormat the page builds,
 * as "DateTimeFormat while hydrating" or "NumberFormat after" (the root marks <html data-hydrated>): a browser's
 * first one loads ICU's data, a long task on a phone, which must not sit in the hydration. Returns the reader.
 */
export async function recordFormattersBuilt(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const built: string[] = [];
    Object.assign(window, { formattersBuilt: built });
    const record = (name: string) =>
      built.push(`${name} ${document.documentElement.dataset.hydrated === undefined ? "while hydrating" : "after"}`);
    Intl.DateTimeFormat = new Proxy(Intl.DateTimeFormat, {
      construct: (target, args: []) => (record("DateTimeFormat"), Reflect.construct(target, args)),
      apply: (target, self, args: []) => (record("DateTimeFormat"), Reflect.apply(target, self, args)),
    });
    Intl.NumberFormat = new Proxy(Intl.NumberFormat, {
      construct: (target, args: []) => (record("NumberFormat"), Reflect.construct(target, args)),
      apply: (target, self, args: []) => (record("NumberFormat"), Reflect.apply(target, self, args)),
    });
  });
  return () => page.evaluate(() => (window as unknown as { formattersBuilt: string[] }).formattersBuilt);
}

/** An API call as `account` (its Bearer token) for a test's set-up or check; a non-2xx answer throws. JSON back, {} when empty. */
export async function apiAs(
  account: { token: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetchWithin(`${baseURL()}/api${path}`, {
    method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${account.token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? {} : ((await response.json().catch(() => ({}))) as Record<string, unknown>);
}

/** Cuts the context's network and proves it is cut: an address never visited shows the offline page. */
export async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  const probe = await openPage(context);
  await probe.goto(`/never-visited-${unique()}`);
  await probe
    .getByRole("heading", { name: "You are offline" })
    .waitFor({ timeout: WAIT_MS })
    .catch((error: unknown) => {
      throw new Error(
        `the offline page (heading "You are offline") did not show within ${WAIT_MS / 1000} s after cutting the network`,
        { cause: error },
      );
    });
  await probe.close();
}

/** Seeds an account straight through the API (not the form), as the style guide asks of test set-up. */
export async function createAccount(overrides: Partial<SignUpBody> = {}) {
  const person = buildSignUp(overrides);
  const response = await fetchWithin(`${baseURL()}/api/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(person),
  });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${await response.text()}`);
  const { token } = (await response.json()) as { token: string };
  return { ...person, token };
}

/** The newest link in the newest message to `address`, read from the development mailbox page. */
export async function latestLinkTo(address: string, pathPrefix: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const html = await (await fetchWithin(`${baseURL()}/dev/mailbox?to=${encodeURIComponent(address)}`)).text();
    const link = [...html.matchAll(/href="(https?:\/\/[^"]+)"/g)]
      .map((m) => m[1]!.replace(/&amp;/g, "&"))
      .find((href) => new URL(href).pathname.startsWith(pathPrefix));
    if (link) return link;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ${pathPrefix} link mailed to ${address} within 10 s`);
}

export const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem("token"));

/** The local D1 database's id, as wrangler names it (wrangler.toml's database_id). */
const D1_DATABASE_ID = /database_id\s*=\s*"([^"]+)"/.exec(readFileSync("wrangler.toml", "utf8"))![1]!;

/** The statements of a script, split at the semicolons outside quotes (what `wrangler d1 execute` does too). */
function statementsOf(script: string): string[] {
  const statements: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const char of script) {
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === ";") {
      if (current.trim()) statements.push(current.trim());
      current = "";
      continue;
    }
    current += char;
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}

/**
 * Runs SQL against the e2e server's local D1, for set-up that has no screen yet (making a creator, seeding a
 * conversation) and for checks of what was stored: one batch (one transaction), each statement's rows returned.
 * The way `wrangler d1 execute --local` does it (a Miniflare on the same persisted state), without starting
 * wrangler's CLI each time (4 s a call). Asynchronous, so the event loop keeps serving the test's sockets.
 * `stateDir`: another server's state (a test that starts its own, tests/support/dev-server.mjs).
 */
export function sqlRows<T = Record<string, unknown>>(script: string, stateDir = E2E_STATE_DIR): Promise<T[][]> {
  const run = async () => {
    const mf = new Miniflare({
      modules: true,
      script: "",
      d1Persist: join(stateDir, "v3", "d1"),
      d1Databases: { DATABASE: D1_DATABASE_ID },
    });
    try {
      const db = await mf.getD1Database("DATABASE");
      const results = await db.batch(statementsOf(script).map((statement) => db.prepare(statement)));
      return results.map((result) => result.results as T[]);
    } finally {
      await mf.dispose();
    }
  };
  return within(run(), `the local D1 to run: ${script.trim().slice(0, 120)}`);
}

export async function sql(statements: string): Promise<void> {
  await sqlRows(statements);
}

/**
 * Stores the session token in the context's first page, as a browser keeps it after signing in. Once: stored again
 * on every load, a signed-out page's dead token would send /login to itself in a loop (GET /api/me, 401, /login).
 */
export async function keepToken(context: BrowserContext, token: string): Promise<void> {
  await context.addInitScript((value) => {
    if (localStorage.getItem("test-token-given") !== null) return;
    localStorage.setItem("test-token-given", "1");
    localStorage.setItem("token", value);
  }, token);
}

/** A page whose browser is signed in as `account` (session cookie and the stored token, as after the form). */
export async function signedInPage(
  browser: Browser,
  account: { email: string; password: string; token: string },
  viewport = { width: 1440, height: 900 },
  options: Pick<
    BrowserContextOptions,
    "colorScheme" | "locale" | "timezoneId" | "bypassCSP" | "serviceWorkers" | "deviceScaleFactor"
  > = {},
) {
  const context = await newContext(browser, { viewport, colorScheme: "light", ...options });
  const login = await context.request.post("/api/login", {
    data: { login: account.email, password: account.password },
  });
  if (!login.ok()) throw new Error(`login failed: ${login.status()}`);
  const { token } = (await login.json()) as { token: string };
  await keepToken(context, token);
  return { context, page: await openPage(context), token };
}

/** A look a new screen is checked in by axe: its colours and its language (Arabic: right to left). */
export interface Look {
  name: string;
  colorScheme: "light" | "dark";
  language: "en" | "ar";
}
export const LOOKS: readonly Look[] = [
  { name: "light", colorScheme: "light", language: "en" },
  { name: "dark", colorScheme: "dark", language: "en" },
  { name: "Arabic", colorScheme: "light", language: "ar" },
];

let arabic: Record<string, string> | undefined;
/** The text `key` (its English) as a page in the look's language shows it; one not translated yet stays English. */
export const textIn =
  (look: Pick<Look, "language">) =>
  (key: string): string => {
    if (look.language === "en") return key;
    arabic ??= JSON.parse(readFileSync("app/locales/ar.json", "utf8")) as Record<string, string>;
    return arabic[key] ?? key;
  };

/** Pages of `context` show the look's language (its colours are the context's, set when it is made). */
export async function speakLanguageOf(context: BrowserContext, look: Pick<Look, "language">) {
  if (look.language === "ar") await context.addCookies([{ name: "i18nextLng", value: "ar", url: baseURL() }]);
}

/** A page signed in as `account` in the look's colours and language. */
export async function signedInPageIn(
  browser: Browser,
  account: { email: string; password: string; token: string },
  look: Look,
) {
  const signedIn = await signedInPage(browser, account, undefined, { colorScheme: look.colorScheme });
  await speakLanguageOf(signedIn.context, look);
  return signedIn;
}

/** Opens `path` and waits for the hydration, after checking the page's direction matches the look's language. */
export async function openIn(page: Page, path: string, look: Pick<Look, "language">) {
  await page.goto(path);
  expect(await page.locator("html").getAttribute("dir")).toBe(look.language === "ar" ? "rtl" : "ltr");
  await hydrated(page);
}

const AXE_SOURCE = readFileSync("node_modules/axe-core/axe.min.js", "utf8");

/** axe-core's serious and critical WCAG 2.1 A/AA findings on the page, as "rule (targets)" lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type Violation = { id: string; impact: string | null; nodes: { target: string[] }[] };
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }
    ).axe;
    const { violations } = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  });
}
