import { readFileSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql, verifiedFanSql } from "./money-support";
import {
  apiAs as api,
  CHROMIUM,
  createAccount,
  hydrated,
  seriousViolations,
  signedInPage,
  sqlRows,
  sql,
  unique,
} from "./support";

/**
 * Live streams end to end: Chromium with fake camera and microphone, WebRTC on loopback only (the server's test
 * mode keeps 127.0.0.1 candidates, --allow-loopback-in-peer-connection lets Chromium gather them).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    ...CHROMIUM,
    args: [
      ...CHROMIUM.args,
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      "--allow-loopback-in-peer-connection",
      "--autoplay-policy=user-gesture-required",
    ],
  });
});
afterAll(async () => {
  await browser?.close();
});

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let paidCreator: Account;
let privateCreator: Account;
let fans: Account[];
let outsider: Account;

beforeAll(async () => {
  const tag = `lv${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}_star`, name: "Luna Live" });
  paidCreator = await createAccount({ username: `${tag}_paid`, name: "Pay Perview" });
  privateCreator = await createAccount({ username: `${tag}_priv`, name: "Priya Private" });
  fans = await Promise.all(
    ["ana", "ben", "cy"].map((name) => createAccount({ username: `${tag}_${name}`, name: `Fan ${name}` })),
  );
  outsider = await createAccount({ username: `${tag}_out`, name: "Otto Outsider" });
  const at = new Date().toISOString();
  await sql(
    `UPDATE users SET role = 'creator', email_verified_at = '${at}' WHERE username IN ('${creator.username}', '${paidCreator.username}', '${privateCreator.username}');
     ${fundedFanSql(fans[0]!.username, 5000)}
     ${verifiedFanSql(fans[1]!.username)}
     ${fundedFanSql(outsider.username, 1000)}`,
  );
  for (const fan of [...fans, outsider]) await api(fan, "POST", `/users/${creator.username}/follow`);
  await api(outsider, "POST", `/users/${privateCreator.username}/follow`);
});

/** Resolves once the page's live video plays frames: a known size and time moving on. */
async function playsFrames(page: Page): Promise<{ width: number; height: number }> {
  const video = page.locator("[data-live-video]");
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth), { timeout: 20_000 })
    .toBeGreaterThan(0);
  const first = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(first);
  return video.evaluate((element: HTMLVideoElement) => ({ width: element.videoWidth, height: element.videoHeight }));
}

/** Arabic's texts of the keys these tests read. */
const arabicTexts = JSON.parse(readFileSync("app/locales/ar.json", "utf8")) as Record<string, string>;
const arabic = { Live: arabicTexts.Live!, "Back to live streams": arabicTexts["Back to live streams"]! };

const viewerCount = (page: Page) => page.locator("[data-viewer-count]").first().getAttribute("data-viewer-count");

describe("live streams", () => {
  it("a creator goes live; three viewers play the video, chat both ways, see a tip and the count; the end reaches everyone", async () => {
    const studio = await signedInPage(browser, creator);
    const page = studio.page;
    await page.goto("/live/start");
    await hydrated(page);
    // The camera's preview plays before going live.
    await expect
      .poll(() => page.locator("[data-studio-preview]").evaluate((element: HTMLVideoElement) => element.videoWidth), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    // The server's reason for a bad entry price, under its field; nothing starts.
    await page.getByLabel("Title").fill("Morning coffee chat");
    await page.getByLabel("Entry price in dollars (optional)").fill("0.50");
    await page.getByRole("button", { name: "Go live", exact: true }).click();
    await page.getByText("An entry price is between $1.00 and $200.00, or nothing.").waitFor();
    await page.getByLabel("Entry price in dollars (optional)").fill("");
    await page.getByLabel("Tip goal in dollars (optional)").fill("20");
    await page.getByLabel("What the goal is for (optional)").fill("New microphone");
    await page.getByRole("button", { name: "Go live", exact: true }).click();
    await page.getByRole("button", { name: "End stream" }).waitFor();
    const [stream] = (
      await sqlRows<{ id: number }>(
        `SELECT id FROM live_streams WHERE creator_id = (SELECT id FROM users WHERE username = '${creator.username}') AND status = 'live'`,
      )
    )[0]!;
    expect(stream).toBeDefined();

    // Three fans, each in their own browser context: one on a phone, two on desktops.
    const viewers = await Promise.all(
      fans.map((fan, index) => signedInPage(browser, fan, index === 2 ? { width: 390, height: 844 } : undefined)),
    );
    // Each finds it another way: Home's "Live now", the notification's Watch, the /live list.
    const [ana, ben, cy] = viewers.map((viewer) => viewer.page) as [Page, Page, Page];
    await ana.goto("/home");
    await ana.getByRole("navigation", { name: "Stories" }).locator(`[data-home-live="${stream!.id}"]`).click();
    await ben.goto("/notifications");
    const told = ben.getByRole("listitem").filter({ hasText: "Luna Live is live now: Morning coffee chat" });
    await told.getByRole("link", { name: "Watch" }).click();
    await cy.goto("/live");
    await cy.locator(`[data-live-stream="${stream!.id}"]`).click();
    for (const viewer of viewers) {
      await viewer.page.waitForURL(`**/live/${stream!.id}`);
      await hydrated(viewer.page);
    }
    for (const viewer of viewers) {
      const size = await playsFrames(viewer.page);
      expect(size.width).toBeGreaterThan(0);
      expect(size.height).toBeGreaterThan(0);
    }
    await expect.poll(() => viewerCount(page)).toBe("3");
    await expect.poll(() => viewerCount(viewers[1]!.page)).toBe("3");

    // Chat both ways.
    await ana.getByLabel("Say something").fill("Hello from Ana!");
    await ana.getByLabel("Say something").press("Enter");
    await page.locator("[data-live-chat]").getByText("Hello from Ana!").waitFor();
    await ben.locator("[data-live-chat]").getByText("Hello from Ana!").waitFor();
    await page.getByLabel("Say something").fill("Welcome, everyone");
    await page.getByLabel("Say something").press("Enter");
    for (const viewer of [ana, ben, cy])
      await viewer.locator("[data-live-chat]").getByText("Welcome, everyone").waitFor();

    // A tip with a message: on every screen, toward the goal, and on the creator's dashboard under "Live streams".
    await ana.getByRole("button", { name: "Send a tip" }).click();
    await ana.getByRole("button", { name: "$5.00" }).click();
    await ana.getByLabel("Message (optional)").fill("For the new mic");
    await ana.getByRole("dialog").getByRole("button", { name: "Send $5.00", exact: true }).click();
    await ana.getByText("Your tip of $5.00 was sent. Thank you!").waitFor();
    for (const viewer of [ben, cy])
      await viewer.locator("[data-tip-banner]").getByText("Fan ana tipped $5.00").waitFor();
    await page.locator("[data-live-tip]").getByText("For the new mic").waitFor();
    await page.getByText("Tips so far: $5.00").waitFor();
    expect(await ben.getByRole("progressbar", { name: "New microphone" }).getAttribute("aria-valuenow")).toBe("25");

    // The creator switches microphones and mutes, then turns the camera off and on: the preview's tracks follow,
    // and the viewers' video keeps playing.
    const previewTrack = (kind: "audio" | "video") =>
      page.locator("[data-studio-preview]").evaluate((video: HTMLVideoElement, which) => {
        const track = (video.srcObject as MediaStream).getTracks().find((candidate) => candidate.kind === which);
        return track ? `${track.label}:${track.enabled ? "on" : "off"}` : "none";
      }, kind);
    await page.getByLabel("Microphone", { exact: true }).selectOption({ label: "Fake Audio Input 2" });
    await expect.poll(() => previewTrack("audio")).toBe("Fake Audio Input 2:on");
    await page.getByRole("button", { name: "Mute microphone" }).click();
    await expect.poll(() => previewTrack("audio")).toBe("Fake Audio Input 2:off");
    await page.getByRole("button", { name: "Turn camera off" }).click();
    await expect.poll(() => previewTrack("video")).toMatch(/:off$/);
    await page.getByRole("button", { name: "Turn camera on" }).click();
    await page.getByRole("button", { name: "Unmute microphone" }).click();
    await expect.poll(() => previewTrack("audio")).toBe("Fake Audio Input 2:on");
    await playsFrames(ben);

    // The viewer's screen (desktop and phone) and the studio, with chat, a tip and the goal on them.
    expect(await seriousViolations(ben)).toEqual([]);
    expect(await seriousViolations(cy)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    // The creator mutes a viewer in the chat, then lets her speak again.
    await page.getByRole("button", { name: "Mute Fan ana" }).first().click();
    await ana.getByRole("status").filter({ hasText: "The creator has muted you in this chat." }).waitFor();
    expect(await ana.getByLabel("Say something").isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Unmute Fan ana" }).first().click();
    await expect.poll(() => ana.getByLabel("Say something").isDisabled()).toBe(false);

    // The creator removes a viewer: he is told so, and the count falls everywhere.
    await cy.getByLabel("Say something").fill("Cy was here");
    await cy.getByLabel("Say something").press("Enter");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Remove Fan cy from the stream" }).first().click();
    await cy.getByRole("alert").getByText("The creator removed you from this stream.").waitFor();
    await expect.poll(() => viewerCount(page)).toBe("2");
    await expect.poll(() => viewerCount(ana)).toBe("2");

    // A viewer closes the tab: the count falls again, then comes back when he returns.
    await viewers[1]!.page.close();
    await expect.poll(() => viewerCount(page)).toBe("1");
    const back = await viewers[1]!.context.newPage();
    await back.goto(`/live/${stream!.id}`);
    await hydrated(back);
    await playsFrames(back);
    await expect.poll(() => viewerCount(page)).toBe("2");

    // Following a link away while live asks first; staying keeps the stream on air.
    page.once("dialog", (dialog) => {
      expect(dialog.message()).toBe("End your stream and leave?");
      void dialog.dismiss();
    });
    await page.getByRole("link", { name: "Home" }).first().click();
    await page.getByRole("button", { name: "End stream" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/live/start");

    // Ending asks first: saying no keeps the stream on air.
    const pastStreams = page.locator('section[aria-labelledby="past-streams"]');
    expect(await pastStreams.locator(`[data-ended-stream="${stream!.id}"]`).count()).toBe(0);
    page.once("dialog", (dialog) => {
      expect(dialog.message()).toBe("End your stream now? Your viewers will be disconnected.");
      void dialog.dismiss();
    });
    await page.getByRole("button", { name: "End stream" }).click();
    await expect.poll(() => viewerCount(ana)).toBe("2");
    expect(await page.getByRole("button", { name: "End stream" }).isEnabled()).toBe(true);
    expect(await page.getByRole("status").filter({ hasText: "This stream has ended" }).count()).toBe(0);

    // The creator ends the stream: every viewer is told, the list no longer shows it.
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "End stream" }).click();
    await page.getByRole("status").filter({ hasText: "This stream has ended" }).waitFor();
    // "Past streams" below the studio starts with it, without a reload.
    await pastStreams.locator(`[data-ended-stream="${stream!.id}"]`).waitFor();
    for (const viewer of [ana, back]) await viewer.getByRole("alert").getByText("This stream has ended").waitFor();
    // Both tell the stream's peak (three at once), Ana's page though it loaded before the others came.
    for (const viewer of [ana, back])
      await viewer.getByRole("alert").getByText("Peak viewers: 3 · Tips: $5.00").waitFor();
    // Nobody is watching any more: the header says when it was, not how many watch.
    await expect.poll(() => ana.locator("[data-viewer-count]").count()).toBe(0);
    expect(await ana.getByText(/\d+ watching/).count()).toBe(0);
    // The header stays above the ended screen: its title is not covered, and its ← leads back to the list.
    const heading = back.getByRole("heading", { name: "Morning coffee chat", level: 1 });
    const titleOnTop = await heading.evaluate((title) => {
      const { left, top } = title.getBoundingClientRect();
      return title.contains(document.elementFromPoint(left + 4, top + 4));
    });
    expect(titleOnTop).toBe(true);
    await back.getByRole("link", { name: "Back to live streams" }).click({ timeout: 10_000 });
    await back.waitForURL(/\/live$/);
    await back.locator(`[data-ended-stream="${stream!.id}"]`).waitFor();
    expect(await back.locator(`[data-live-stream="${stream!.id}"]`).count()).toBe(0);
    expect(await seriousViolations(back)).toEqual([]);
    // The notification that said "live now" tells of the past now, without its Watch; it still opens the stream's page.
    await back.goto("/notifications");
    const toldBefore = back.getByRole("listitem").filter({ hasText: "Luna Live was live: Morning coffee chat" });
    await toldBefore.waitFor();
    expect(await toldBefore.getByRole("link", { name: "Watch" }).count()).toBe(0);
    expect(await back.getByText("Luna Live is live now").count()).toBe(0);
    expect(
      await toldBefore.getByRole("link", { name: "Luna Live was live: Morning coffee chat" }).getAttribute("href"),
    ).toBe(`/live/${stream!.id}`);

    await page.goto("/dashboard");
    const liveRow = page.locator("dt", { hasText: "Live streams" }).first().locator("xpath=following-sibling::dd[1]");
    await expect.poll(() => liveRow.textContent()).toBe("$4.00");
  });

  it("in Arabic on a phone: Home's tray says Live on one line under the avatar, and the stream's back arrow points right", async () => {
    const onAir = (await api(creator, "POST", "/live", { title: "Quick hello", audience: "everyone" })) as {
      id: number;
    };
    try {
      const { page } = await signedInPage(browser, fans[1]!, { width: 390, height: 844 });
      // ?lng=ar is remembered for the pages after it too, once the page has hydrated (the browser writes the cookie).
      await page.goto("/home?lng=ar");
      await hydrated(page);
      const item = page.locator(`[data-home-live="${onAir.id}"]`);
      const label = item.getByText(arabic.Live, { exact: true });
      await label.waitFor();
      // One line (10 px type), inside its tray item.
      const [labelBox, itemBox] = [(await label.boundingBox())!, (await item.boundingBox())!];
      expect(labelBox.height).toBeLessThanOrEqual(18);
      expect(labelBox.x).toBeGreaterThanOrEqual(itemBox.x - 1);
      expect(labelBox.x + labelBox.width).toBeLessThanOrEqual(itemBox.x + itemBox.width + 1);

      await page.goto(`/live/${onAir.id}`);
      await hydrated(page);
      const back = page.getByRole("link", { name: arabic["Back to live streams"] });
      expect(await back.locator("span:visible").allTextContents()).toEqual(["→"]);
    } finally {
      await api(creator, "POST", `/live/${onAir.id}/end`);
    }
  });

  it("a subscribers-only stream is not there for a follower; an entry price is taken once, through the wallet", async () => {
    const subscribersOnly = (await api(privateCreator, "POST", "/live", {
      title: "Subscribers only",
      audience: "subscribers",
    })) as { id: number };
    const paid = (await api(paidCreator, "POST", "/live", {
      title: "Paid show",
      audience: "everyone",
      priceCents: 300,
    })) as { id: number };
    try {
      const { page } = await signedInPage(browser, outsider, { width: 390, height: 844 });
      await page.goto(`/live/${subscribersOnly.id}`);
      await page.getByRole("heading", { name: "This live stream does not exist." }).waitFor();
      await page.goto("/live");
      await page.locator(`[data-live-stream="${paid.id}"]`).waitFor();
      expect(await page.locator(`[data-live-stream="${subscribersOnly.id}"]`).count()).toBe(0);

      // The paid stream opens on its entry step, with the price and the wallet.
      await page.locator(`[data-live-stream="${paid.id}"]`).click();
      await page.waitForURL(`**/live/${paid.id}/join`);
      await page.getByText("Entry: $3.00").waitFor();
      await page.getByText("Your wallet: $10.00").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await hydrated(page);
      await page.getByRole("button", { name: "Pay $3.00 and watch" }).click();
      await page.waitForURL(`**/live/${paid.id}`);
      await page.getByRole("heading", { name: "Paid show" }).waitFor();
      // Back to the entry step: already in, nothing more to pay.
      await page.goto(`/live/${paid.id}/join`);
      await page.waitForURL(`**/live/${paid.id}`);
      const [payments] = await sqlRows<{ n: number; cents: number }>(
        `SELECT COUNT(*) AS n, SUM(amount_cents) AS cents FROM payments WHERE kind = 'live' AND live_stream_id = ${paid.id} AND user_id = (SELECT id FROM users WHERE username = '${outsider.username}')`,
      );
      expect(payments![0]).toEqual({ n: 1, cents: 300 });
      const wallet = (await api(outsider, "GET", "/wallet")) as { balanceCents: number };
      expect(wallet.balanceCents).toBe(700);
    } finally {
      await api(privateCreator, "POST", `/live/${subscribersOnly.id}/end`);
      await api(paidCreator, "POST", `/live/${paid.id}/end`);
    }
  });
});
