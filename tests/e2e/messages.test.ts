import { beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql, verifiedFanSql } from "./money-support";
import {
  apiAs as api,
  baseURL,
  browserForThisFile,
  createAccount,
  fetchWithin,
  hydrated,
  recordFormattersBuilt,
  seriousViolations,
  signedInPage,
  sql,
  unique,
  within,
} from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let fan: Account;
let creator: Account;
let buyer: Account;
let broke: Account;
let seller: Account;

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The Messages badge's number for an account, as /api/updates answers it. */
const unreadOf = async (account: Account) => {
  const response = await fetchWithin(`${baseURL()}/api/updates`, {
    headers: { Authorization: `Bearer ${account.token}` },
  });
  return ((await response.json()) as { updates: { messages: number } }).updates.messages;
};

beforeAll(async () => {
  const tag = `ms${unique().slice(-8)}`;
  fan = await createAccount({ username: `${tag}_fan`, name: "Fiona Fan" });
  creator = await createAccount({ username: `${tag}_star`, name: "Sam Star" });
  buyer = await createAccount({ username: `${tag}_buyer`, name: "Bea Buyer" });
  broke = await createAccount({ username: `${tag}_broke`, name: "Bo Broke" });
  seller = await createAccount({ username: `${tag}_seller`, name: "Sela Seller" });
  const at = new Date().toISOString();
  await sql(
    `UPDATE users SET role = 'creator', email_verified_at = '${at}' WHERE username IN ('${creator.username}', '${seller.username}');
     UPDATE users SET monetization_enabled = 1, message_price_cents = 200 WHERE username = '${seller.username}';
     ${fundedFanSql(buyer.username, 1000)}
     ${verifiedFanSql(broke.username)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (const member of [buyer, broke]) await api(member, "POST", `/users/${seller.username}/follow`);
});

describe("messages", () => {
  it("a fan starts a chat from a profile; text, typing and Seen go both ways live; the badge counts up and clears", async () => {
    // The fan on a phone in dark mode, the creator on a desktop in light mode.
    const fanSide = await signedInPage(browser(), fan, { width: 390, height: 844 }, { colorScheme: "dark" });
    const creatorSide = await signedInPage(browser(), creator);
    const fanPage = fanSide.page;
    const creatorPage = creatorSide.page;

    // Not following yet: the server's reason is shown and nothing opens.
    await fanPage.goto(`/${creator.username}`);
    await hydrated(fanPage);
    await fanPage.getByRole("button", { name: "Message", exact: true }).click();
    await fanPage
      .getByRole("alert")
      .getByText("You can message creators you follow or subscribe to, your own fans, and people who follow you back.")
      .waitFor();
    expect(new URL(fanPage.url()).pathname).toBe(`/${creator.username}`);

    // Following makes writing possible.
    await fanPage.getByRole("button", { name: "Follow", exact: true }).click();
    await fanPage.getByRole("button", { name: "Following" }).waitFor();
    await fanPage.getByRole("button", { name: "Message", exact: true }).click();
    await fanPage.waitForURL(/\/messages\/\d+$/);
    await hydrated(fanPage);
    const threadPath = new URL(fanPage.url()).pathname;
    await fanPage.getByRole("link", { name: "Sam Star" }).waitFor();
    // The phone's bottom bar is gone and the composer sits at the bottom of the screen.
    expect(await fanPage.locator("nav.fixed").count()).toBe(0);
    const composerBox = await fanPage.getByTestId("composer-input").boundingBox();
    expect(composerBox!.y + composerBox!.height).toBeGreaterThan(844 - 80);

    // The creator waits on /home; the fan's message raises the Messages badge.
    await creatorPage.goto("/home");
    await hydrated(creatorPage);
    expect(await creatorPage.locator("[data-badge='messages']").count()).toBe(0);
    await fanPage.getByTestId("composer-input").fill("Hello Sam!");
    await fanPage.getByTestId("composer-input").press("Enter");
    const fanMessage = fanPage.locator("[data-testid='message'][data-mine='true'][data-seq]", {
      hasText: "Hello Sam!",
    });
    await fanMessage.waitFor();
    expect(await fanPage.getByTestId("composer-input").inputValue()).toBe("");
    await creatorPage.locator("[data-badge='messages']", { hasText: "1" }).first().waitFor();

    // The list shows the conversation with its last message and unread count.
    await creatorPage.goto("/messages");
    await hydrated(creatorPage);
    const row = creatorPage.getByTestId("conversation-row");
    await row.getByText("Hello Sam!").waitFor();
    await row.getByText("Fiona Fan").waitFor();
    expect(await row.locator("[data-unread]").getAttribute("data-unread")).toBe("1");
    expect(await seriousViolations(creatorPage)).toEqual([]);

    // Opening it reads it: the badge clears and the fan sees "Seen" under their message.
    await row.getByRole("link").click();
    await creatorPage.waitForURL(threadPath);
    await creatorPage.locator("[data-testid='message'][data-mine='false']", { hasText: "Hello Sam!" }).waitFor();
    await creatorPage.locator("[data-badge='messages']").first().waitFor({ state: "detached" });
    await fanPage.getByTestId("seen-indicator").waitFor();
    expect(await seriousViolations(fanPage)).toEqual([]);

    // Typing shows on the other side, then the reply arrives live, its address a safe link.
    await creatorPage.getByTestId("composer-input").pressSequentially("Hi Fiona", { delay: 20 });
    await fanPage.getByTestId("typing-indicator").waitFor();
    await creatorPage.getByTestId("composer-input").pressSequentially(", see https://example.com/tour", { delay: 5 });
    await creatorPage.getByTestId("send-button").click();
    const reply = fanPage.locator("[data-testid='message'][data-mine='false']", { hasText: "Hi Fiona, see" });
    await reply.waitFor();
    const link = reply.getByRole("link", { name: "https://example.com/tour" });
    expect(await link.getAttribute("href")).toBe("https://example.com/tour");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(await link.getAttribute("target")).toBe("_blank");
    // The message ends "typing…" at once.
    await fanPage.getByTestId("typing-indicator").waitFor({ state: "detached" });

    // The fan's open thread read the reply at once: the creator sees "Seen", and the fan has nothing unread.
    await creatorPage.getByTestId("seen-indicator").waitFor();
    await expect.poll(() => unreadOf(fan)).toBe(0);

    // Shift+Enter is a new line, not a send.
    await fanPage.getByTestId("composer-input").fill("Line one");
    await fanPage.getByTestId("composer-input").press("Shift+Enter");
    await fanPage.getByTestId("composer-input").pressSequentially("line two");
    expect(await fanPage.getByTestId("composer-input").inputValue()).toBe("Line one\nline two");
    await fanPage.getByTestId("send-button").click();
    await creatorPage.locator("[data-testid='message'][data-mine='false']", { hasText: "line two" }).waitFor();
    const seqs = await creatorPage
      .getByTestId("message")
      .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute("data-seq"))));
    expect(seqs).toEqual([1, 2, 3]);
  });

  it("a device whose session ended elsewhere hears nothing more in its open chat, and shows it is signed out", async () => {
    const tag = `so${unique().slice(-8)}`;
    const member = await createAccount({ username: `${tag}_fan`, name: "Dana Device" });
    const star = await createAccount({ username: `${tag}_star`, name: "Ravi Star" });
    await sql(
      `UPDATE users SET role = 'creator', email_verified_at = '${new Date().toISOString()}' WHERE username = '${star.username}'`,
    );
    await api(member, "POST", `/users/${star.username}/follow`);
    const { id: conversationId } = (await api(member, "POST", "/conversations", { username: star.username })) as {
      id: number;
    };
    const say = (text: string) =>
      api(star, "POST", `/conversations/${conversationId}/messages`, { clientId: `c${unique()}`, text });

    // Device B is ready to change the password first, so that device A's 30-second poll of /api/updates (whose
    // 401 would also lead it away) comes only after everything below.
    const deviceB = await signedInPage(browser(), member, { width: 390, height: 844 });
    await deviceB.page.goto("/settings/account");
    await hydrated(deviceB.page);
    const passwordForm = deviceB.page.getByRole("region", { name: "Change password" });
    await passwordForm.getByLabel("Current password").fill(member.password);
    await passwordForm.getByLabel("New password", { exact: true }).fill("a quiet harbour at dawn");
    await passwordForm.getByLabel("Repeat the new password").fill("a quiet harbour at dawn");

    // Device A has the conversation open; its chat socket goes through the test, which hears what the server sends.
    const deviceA = await signedInPage(browser(), member);
    const heard: string[] = [];
    const serverClosedWith: number[] = [];
    let chatClosed = () => {};
    const chatClosedByServer = new Promise<void>((resolve) => (chatClosed = resolve));
    await deviceA.page.routeWebSocket(/\/ws\/conversations\//, (socket) => {
      const server = socket.connectToServer();
      server.onMessage((frame) => {
        heard.push(String(frame));
        socket.send(frame);
      });
      server.onClose((code, reason) => {
        serverClosedWith.push(code ?? 0);
        chatClosed();
        void socket.close({ code, reason });
      });
    });
    // Its updates socket is closed by the session's end too, which takes the page to /login and closes the chat
    // socket from the page's side. That close reaches the page only after the chat room's own, so that what this
    // test watches is the room closing the socket, whichever of the two objects the server reaches first.
    await deviceA.page.routeWebSocket(/\/ws\/updates/, (socket) => {
      const server = socket.connectToServer();
      server.onClose((code, reason) => void chatClosedByServer.then(() => socket.close({ code, reason })));
    });
    // The thread catches up once its socket is open (through to the room).
    const socketOpen = deviceA.page.waitForResponse((response) =>
      response.url().includes(`/api/conversations/${conversationId}/messages?after=`),
    );
    await deviceA.page.goto(`/messages/${conversationId}`);
    await hydrated(deviceA.page);
    expect((await socketOpen).status()).toBe(200);
    await say("Before you changed it");
    await deviceA.page.getByTestId("message").filter({ hasText: "Before you changed it" }).waitFor();
    await expect.poll(() => heard.some((frame) => frame.includes("Before you changed it"))).toBe(true);

    await passwordForm.getByRole("button", { name: "Change password" }).click();
    await passwordForm.getByText("Your password was changed. Other devices have been signed out.").waitFor();
    // The chat's room closes A's socket itself, as the session's end (not the page leaving).
    await within(chatClosedByServer, "the chat room to close device A's socket");
    expect(serverClosedWith).toEqual([4401]);
    await say("After you changed it");
    // Device A shows it is signed out, and never got the message.
    await deviceA.page.waitForURL(/\/login/);
    await deviceA.page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(heard.some((frame) => frame.includes("After you changed it"))).toBe(false);
    // Device B goes on.
    await deviceB.page.reload();
    await passwordForm.waitFor();
  });

  it("a creator's per-message price and a pay-per-view photo: the short wallet is told to top up, the buyer pays and unlocks", async () => {
    const opened = (await api(buyer, "POST", "/conversations", { username: seller.username }))!;
    const brokeOpened = (await api(broke, "POST", "/conversations", { username: seller.username }))!;

    // A fan with an empty wallet: 402's sentence and the way to the wallet; the text stays to try again.
    const brokeSide = await signedInPage(browser(), broke, { width: 390, height: 844 });
    await brokeSide.page.goto(`/messages/${String(brokeOpened.id)}`);
    await hydrated(brokeSide.page);
    await brokeSide.page.getByText("Each message costs $2.00").waitFor();
    await brokeSide.page.getByTestId("composer-input").fill("Can I ask something?");
    await brokeSide.page.getByTestId("send-button").click();
    const refusal = brokeSide.page.getByRole("alert").filter({ hasText: "You need to fund your wallet!" });
    await refusal.waitFor();
    expect(await refusal.getByRole("link", { name: "Top up your wallet" }).getAttribute("href")).toBe("/wallet");
    expect(await brokeSide.page.getByTestId("composer-input").inputValue()).toBe("Can I ask something?");
    expect(await brokeSide.page.locator("[data-testid='message'][data-seq]").count()).toBe(0);

    // A funded fan pays the price with the message.
    const buyerSide = await signedInPage(browser(), buyer);
    const buyerPage = buyerSide.page;
    await buyerPage.goto(`/messages/${String(opened.id)}`);
    await hydrated(buyerPage);
    await buyerPage.getByTestId("composer-input").fill("Hi! Anything new?");
    await buyerPage.getByTestId("send-button").click();
    await buyerPage.locator("[data-testid='message'][data-seq='1']", { hasText: "Paid $2.00" }).waitFor();

    // The creator answers with a photo for $3.00, uploaded from the composer.
    const sellerSide = await signedInPage(browser(), seller);
    const sellerPage = sellerSide.page;
    await sellerPage.goto(`/messages/${String(opened.id)}`);
    await hydrated(sellerPage);
    await sellerPage
      .getByTestId("message-files")
      .setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: PNG });
    await sellerPage.getByRole("progressbar", { name: "dot.png uploaded" }).waitFor();
    await sellerPage.getByLabel("Price in USD (optional)").fill("3");
    await sellerPage.getByTestId("composer-input").fill("Something special");
    await sellerPage.getByTestId("send-button").click();
    const sold = sellerPage.locator("[data-testid='message'][data-seq='2']");
    await sold.getByText("Price $3.00 · Not bought yet").waitFor();

    // The fan sees it arrive locked, blurred, and unlocks it; the creator's screen marks it bought.
    const locked = buyerPage.locator("[data-testid='message'][data-seq='2']");
    await locked.getByTestId("unlock-button").waitFor();
    expect(await locked.getByTestId("unlock-button").textContent()).toBe("Unlock for $3.00");
    expect(await locked.locator("a img").count()).toBe(0);
    expect(await locked.getByText("1 photo", { exact: true }).count()).toBe(1);
    // The blurred preview the browser made at upload, fetched only when the message comes near the screen.
    expect(
      await locked
        .locator("img")
        .evaluate((img: HTMLImageElement) => [
          img.getAttribute("src")?.startsWith("/media/previews/"),
          img.loading,
          img.decoding,
        ]),
    ).toEqual([true, "lazy", "async"]);
    await locked.getByTestId("unlock-button").click();
    await locked.getByRole("button", { name: "Confirm" }).click();
    await locked.locator("a img").waitFor();
    expect(await locked.getByTestId("unlock-button").count()).toBe(0);
    await sold.getByText("Price $3.00 · Bought").waitFor();

    const wallet = (await api(buyer, "GET", "/wallet"))!;
    expect(wallet.balanceCents).toBe(1000 - 200 - 300);
  });

  it("a thread's times: switched to the browser's zone without a formatter, then written by the server in the zone the browser named, kept by the hydration", async () => {
    const tag = `mt${unique().slice(-8)}`;
    const reader = await createAccount({ username: `${tag}_fan` });
    const star = await createAccount({ username: `${tag}_star` });
    await sql(
      `UPDATE users SET role = 'creator', email_verified_at = '${new Date().toISOString()}' WHERE username = '${star.username}';`,
    );
    await api(reader, "POST", `/users/${star.username}/follow`);
    const opened = (await api(reader, "POST", "/conversations", { username: star.username })) as { id: number };
    await api(reader, "POST", `/conversations/${opened.id}/messages`, {
      clientId: crypto.randomUUID(),
      text: "Time check",
    });
    // Sent on 1 March at 15:04 UTC: 2 March, 12:04 AM in Tokyo.
    await sql(`UPDATE messages SET created_at = '2026-03-01T15:04:00.000Z' WHERE conversation_id = ${opened.id};`);
    const { page, context } = await signedInPage(browser(), reader, undefined, { timezoneId: "Asia/Tokyo" });
    const formattersBuilt = await recordFormattersBuilt(page);
    // First visit: UTC from the server, Tokyo once the page is idle, written with the page's pattern.
    expect(await (await page.request.get(`/messages/${opened.id}`)).text()).toContain(">Mar 1, 3:04 PM</time>");
    await page.goto(`/messages/${opened.id}`);
    await hydrated(page);
    const time = page.getByTestId("message").filter({ hasText: "Time check" }).locator("time");
    await expect.poll(() => time.textContent()).toBe("Mar 2, 12:04 AM");
    await expect
      .poll(async () => (await context.cookies()).find((cookie) => cookie.name === "tz")?.value)
      .toBe("Asia/Tokyo");
    expect(await formattersBuilt()).toEqual([]);
    // From then on the server writes Tokyo's time, and the hydration keeps it.
    const html = await (await page.request.get(`/messages/${opened.id}`)).text();
    expect(html).toContain(">Mar 2, 12:04 AM</time>");
    await page.reload();
    await hydrated(page);
    expect(await time.textContent()).toBe("Mar 2, 12:04 AM");
    expect(await formattersBuilt()).toEqual([]);
    await context.close();
  });
});
