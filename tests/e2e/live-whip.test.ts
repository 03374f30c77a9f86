import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServer } from "../support/dev-server.mjs";
import { startWhipRelay } from "../support/whip-relay.mjs";
import {
  buildSignUp,
  CHROMIUM,
  fetchWithin,
  hydrated,
  keepToken,
  newContext,
  openPage,
  sqlRows,
  unique,
} from "./support";

/**
 * The `whip` transport end to end: the same studio and viewer screens, publishing with WHIP and playing with WHEP
 * through a real WebRTC relay on 127.0.0.1 (werift, tests/support/whip-relay.mjs), the way Cloudflare's SFU is
 * used in production. Its own server, configured with LIVE_TRANSPORT=whip and the relay's URL templates.
 */
const STATE_DIR = "tests/e2e/.artifacts/state-whip";
let browser: Browser;
let relay: Awaited<ReturnType<typeof startWhipRelay>>;
let server: Awaited<ReturnType<typeof startDevServer>>;

beforeAll(async () => {
  relay = await startWhipRelay();
  server = await startDevServer({
    stateDir: STATE_DIR,
    logFile: "test-results/e2e/server-whip.log",
    vars: { LIVE_TRANSPORT: "whip", LIVE_WHIP_URL: relay.whipUrl, LIVE_WHEP_URL: relay.whepUrl },
  });
  browser = await chromium.launch({
    ...CHROMIUM,
    args: [
      ...CHROMIUM.args,
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      "--allow-loopback-in-peer-connection",
    ],
  });
}, 90_000);
afterAll(async () => {
  await browser?.close();
  server?.stop();
  await relay?.stop();
});

/** An account on this file's server, signed in in a fresh context. */
async function personOn(overrides: { username: string; name: string }, viewport = { width: 1280, height: 900 }) {
  const person = buildSignUp(overrides);
  const signup = await fetchWithin(`${server.baseURL}/api/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(person),
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status}`);
  const { token } = (await signup.json()) as { token: string };
  const context = await newContext(browser, { baseURL: server.baseURL, viewport });
  const login = await context.request.post("/api/login", { data: { login: person.email, password: person.password } });
  if (!login.ok()) throw new Error(`login failed: ${login.status()}`);
  await keepToken(context, ((await login.json()) as { token: string }).token);
  return { ...person, token, context, page: await openPage(context) };
}

async function playsFrames(page: Page) {
  const video = page.locator("[data-live-video]");
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth), { timeout: 20_000 })
    .toBeGreaterThan(0);
  const first = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(first);
}

describe("live streams through WHIP and WHEP", () => {
  it("the creator publishes with WHIP; two viewers play it with WHEP and chat; the end reaches them", async () => {
    const tag = `wh${unique().slice(-8)}`;
    const creator = await personOn({ username: `${tag}_star`, name: "Wendy Whip" });
    await sqlRows(
      `UPDATE users SET role = 'creator', email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}'`,
      STATE_DIR,
    );
    const viewers = [
      await personOn({ username: `${tag}_one`, name: "Viewer One" }),
      await personOn({ username: `${tag}_two`, name: "Viewer Two" }, { width: 390, height: 844 }),
    ];

    const studio = creator.page;
    await studio.goto("/live/start");
    await hydrated(studio);
    await expect
      .poll(() => studio.locator("[data-studio-preview]").evaluate((element: HTMLVideoElement) => element.videoWidth), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    await studio.getByLabel("Title").fill("Broadcast through the SFU");
    await studio.getByRole("button", { name: "Go live", exact: true }).click();
    await studio.getByRole("button", { name: "End stream" }).waitFor();
    const [rows] = await sqlRows<{ id: number; transport: string; publish_url: string }>(
      "SELECT id, transport, publish_url FROM live_streams ORDER BY id DESC LIMIT 1",
      STATE_DIR,
    );
    const stream = rows![0];
    expect(stream!.transport).toBe("whip");
    expect(stream!.publish_url.startsWith(relay.origin)).toBe(true);

    for (const viewer of viewers) {
      await viewer.page.goto(`/live/${stream!.id}`);
      await hydrated(viewer.page);
    }
    for (const viewer of viewers) await playsFrames(viewer.page);
    await expect.poll(() => studio.locator("[data-viewer-count]").first().getAttribute("data-viewer-count")).toBe("2");

    await viewers[0]!.page.getByLabel("Say something").fill("Crystal clear over WHEP");
    await viewers[0]!.page.getByLabel("Say something").press("Enter");
    await studio.locator("[data-live-chat]").getByText("Crystal clear over WHEP").waitFor();
    await viewers[1]!.page.locator("[data-live-chat]").getByText("Crystal clear over WHEP").waitFor();

    // Ending asks first.
    studio.once("dialog", (dialog) => void dialog.accept());
    await studio.getByRole("button", { name: "End stream" }).click();
    for (const viewer of viewers) await viewer.page.getByRole("alert").getByText("This stream has ended").waitFor();
  });
});
