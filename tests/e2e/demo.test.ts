import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServer } from "../support/dev-server.mjs";
import { browserForThisFile, fetchWithin, hydrated, keepToken, newContext, openPage, within } from "./support";

/**
 * The demo `npm start` seeds (scripts/seed.mjs), on a server of its own (the shared one's people must not meet the
 * demo's): the demo fan, who follows mia.rivers, finds her video post in the feed and plays it, at 360p on a phone
 * and at 720p from the quality menu.
 */
const browser = browserForThisFile();
const STATE_DIR = "tests/e2e/.artifacts/demo-state";
const FAN = { login: "fan@demo.test", password: "demo-fan-2026" };
const VIDEO_POST = "Behind the scenes: eight seconds from today's shoot.";

let server: Awaited<ReturnType<typeof startDevServer>>;

beforeAll(async () => {
  server = await startDevServer({ stateDir: STATE_DIR, vars: { SESSION_CACHE_SECONDS: "0" } });
  await within(
    promisify(execFile)(process.execPath, ["scripts/seed.mjs", "--persist-to", STATE_DIR], {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    }),
    "scripts/seed.mjs to seed the demo",
  );
}, 90_000);

afterAll(() => server?.stop());

interface TimelineAnswer {
  posts: { id: number; text: string; media: { kind: string; renditions: { name: string; url: string }[] }[] | null }[];
}

describe("the demo", () => {
  it("the demo fan plays mia.rivers's video post for followers, at 360p on a phone and at 720p when chosen", async () => {
    const login = await fetchWithin(`${server.baseURL}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(FAN),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const timeline = (await (
      await fetchWithin(`${server.baseURL}/api/timeline`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as TimelineAnswer;
    const post = timeline.posts.find((item) => item.text.startsWith(VIDEO_POST));
    expect(post?.media?.map((item) => item.kind)).toEqual(["video"]);
    const renditions = post!.media![0]!.renditions;
    expect(renditions.map((rendition) => rendition.name)).toEqual(["360p", "720p"]);

    const context = await newContext(browser(), { baseURL: server.baseURL, viewport: { width: 390, height: 844 } });
    await keepToken(context, token);
    await context.request.post("/api/login", { data: FAN });
    const page = await openPage(context);
    await page.goto("/home");
    await hydrated(page);
    const article = page.locator("article", { hasText: VIDEO_POST });
    const video = article.locator("video");
    const menu = article.getByRole("combobox", { name: "Video quality" });
    await menu.waitFor();
    const currentTime = () => video.evaluate((element: HTMLVideoElement) => element.currentTime);
    const playedFrom = async (url: string) =>
      page.waitForFunction(
        ([path, past]) => {
          const element = document.querySelector<HTMLVideoElement>("article video[data-rendition]")!;
          return element.currentTime > past && new URL(element.currentSrc || "http://x/").pathname === path;
        },
        [url, (await currentTime()) + 0.5] as const,
        { timeout: 30_000 },
      );
    // Space on the focused video: its controls are the browser's own, out of a locator's reach.
    await video.focus();
    await page.keyboard.press("Space");
    await playedFrom(renditions[0]!.url);
    await menu.selectOption("720p");
    await playedFrom(renditions[1]!.url);
  });
});
