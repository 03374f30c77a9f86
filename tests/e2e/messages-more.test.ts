import { beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql } from "./money-support";
import {
  apiAs as api,
  browserForThisFile,
  createAccount,
  hydrated,
  seriousViolations,
  signedInPage,
  sql,
  unique,
} from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let fans: Account[];
let blocked: Account;
let blockedConversationId: number;

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const PHONE = { width: 390, height: 844 };
const MASS_TEXT = "Big news for all of you!";

/** The id of the account's conversation with the creator (the mass message made it). */
const conversationWithCreator = async (account: Account) => {
  const page = (await api(account, "GET", "/conversations")) as {
    conversations: { id: number; other: { username: string } }[];
  };
  return page.conversations.find((conversation) => conversation.other.username === creator.username)!.id;
};

beforeAll(async () => {
  const tag = `mm${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}_star`, name: "Sam Star" });
  fans = await Promise.all(
    ["ann", "ben", "cat"].map((name) => createAccount({ username: `${tag}_${name}`, name: `Fan ${name}` })),
  );
  blocked = await createAccount({ username: `${tag}_troll`, name: "Tom Troll" });
  // The first fan has $20 to tip with from a conversation.
  await sql(
    `UPDATE users SET role = 'creator', email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}';\n${fundedFanSql(fans[0]!.username, 2000)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (const fan of [...fans, blocked]) await api(fan, "POST", `/users/${creator.username}/follow`);
  blockedConversationId = (await api(blocked, "POST", "/conversations", { username: creator.username })).id as number;
  await api(creator, "POST", `/users/${blocked.username}/block`);
});

describe("messages: mass messages, chat media, tips, blocking, Arabic", () => {
  it("a creator's mass message to followers reaches three fans, with the results counted to 3 sent", async () => {
    const { page } = await signedInPage(browser(), creator);
    await page.goto("/messages");
    await hydrated(page);
    await page.getByRole("link", { name: "New mass message" }).click();
    await page.waitForURL("/messages?view=mass");
    await page.getByText("Your mass messages and what they earned appear here.").waitFor();

    // Nobody subscribes yet: the count says so, the server refuses, and nothing is listed.
    await page.getByTestId("mass-recipient-count").getByText("0 fans will get it.").waitFor();
    await page.getByTestId("mass-message-text").fill(MASS_TEXT);
    await page.getByRole("button", { name: "Send now" }).click();
    await page.getByRole("alert").getByText("Nobody to send it to yet: these lists are empty.").waitFor();
    expect(await page.getByTestId("mass-message").count()).toBe(0);

    // Followers: the three fans (the blocked one is left out); the queue delivers them.
    await page.getByTestId("mass-include-followers").check();
    await page.getByTestId("mass-include-subscribers").uncheck();
    await page.getByTestId("mass-recipient-count").getByText("3 fans will get it.").waitFor();
    await page.getByRole("button", { name: "Send now" }).click();
    const sent = page.getByTestId("mass-message").filter({ hasText: MASS_TEXT });
    await sent.and(page.locator('[data-status="sent"]')).waitFor({ timeout: 20_000 });
    expect(await sent.getByTestId("mass-message-sent").textContent()).toBe("3");
    expect(await page.getByTestId("mass-message").count()).toBe(1);
    expect(await page.getByTestId("mass-message-text").inputValue()).toBe("");

    for (const fan of fans) {
      const side = await signedInPage(browser(), fan, PHONE);
      await side.page.goto("/messages");
      const row = side.page.getByTestId("conversation-row").filter({ hasText: "Sam Star" });
      await row.getByText(MASS_TEXT).waitFor();
      await side.context.close();
    }
    const blockedList = (await api(blocked, "GET", "/conversations")) as { conversations: { lastMessage: unknown }[] };
    expect(blockedList.conversations.map((conversation) => conversation.lastMessage)).toEqual([]);
  });

  it("a mass message to 600 followers is written in batches while the app keeps answering: the count climbs", async () => {
    const tag = `mq${unique().slice(-8)}`;
    const star = await createAccount({ username: `${tag}_star`, name: "Busy Star" });
    const now = new Date().toISOString();
    await sql(`UPDATE users SET role = 'creator', email_verified_at = '${now}' WHERE username = '${star.username}';
      WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 600)
      INSERT INTO users (username, name, email, email_verified_at, password_hash, date_of_birth, account_type, role, created_at, updated_at)
      SELECT printf('${tag}_%04d', n), 'Fan', printf('${tag}_%04d@example.test', n), '${now}', 'x', '1990-01-01', 'other', 'member', '${now}', '${now}' FROM seq;
      INSERT INTO follows (follower_id, creator_id, created_at)
      SELECT u.id, (SELECT id FROM users WHERE username = '${star.username}'), '${now}' FROM users u WHERE u.username GLOB '${tag}_[0-9]*';`);
    const { id } = (await api(star, "POST", "/mass-messages", {
      clientId: crypto.randomUUID(),
      include: ["followers"],
      text: "To all 600",
    })) as { id: number };
    // Twelve batches of 50. The creator's list, read every 50 ms. Were the consumer to hold the Worker until it is done (the local
    // event loop starved by back-to-back D1 answers), no read would land mid-way: 0, then 600.
    // Bounded under the test's own time-out, so that a delivery that stops says how far it got.
    const SENT_WITHIN_MS = 40_000;
    const deadline = Date.now() + SENT_WITHIN_MS;
    const seen = new Set<number>();
    for (;;) {
      const { massMessages } = (await api(star, "GET", "/mass-messages")) as {
        massMessages: { id: number; delivered: number; recipients: number; status: string }[];
      };
      const mine = massMessages.find((mass) => mass.id === id)!;
      expect(mine.recipients).toBe(600);
      seen.add(mine.delivered);
      if (mine.status === "sent") break;
      if (Date.now() > deadline)
        throw new Error(
          `the mass message to 600 followers was still "${mine.status}" at ${mine.delivered} delivered after ${SENT_WITHIN_MS / 1000} s`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(Math.max(...seen)).toBe(600);
    expect([...seen].filter((delivered) => delivered > 0 && delivered < 600).length).toBeGreaterThan(0);
  });

  it("a blocked fan sees why and has no composer", async () => {
    const { page } = await signedInPage(browser(), blocked, PHONE);
    await page.goto(`/messages/${blockedConversationId}`);
    await hydrated(page);
    await page.getByRole("status").getByText("This profile is not available.").waitFor();
    expect(await page.getByTestId("composer-input").count()).toBe(0);
    expect(await page.getByTestId("send-button").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Send a tip" }).count()).toBe(0);
  });

  it("chat media shows a pay-per-view photo locked to the fan and open to its sender; a tip from the thread reaches the creator live; axe light and dark", async () => {
    const fan = fans[0]!;
    const conversationId = await conversationWithCreator(fan);
    const creatorSide = await signedInPage(browser(), creator);
    const creatorPage = creatorSide.page;
    await creatorPage.goto(`/messages/${conversationId}`);
    await hydrated(creatorPage);
    await creatorPage
      .getByTestId("message-files")
      .setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: PNG });
    await creatorPage.getByRole("progressbar", { name: "dot.png uploaded" }).waitFor();
    await creatorPage.getByLabel("Price in USD (optional)").fill("3");
    await creatorPage.getByTestId("send-button").click();
    await creatorPage.getByText("Price $3.00 · Not bought yet").waitFor();
    // The fan is no creator: the creator's thread offers no tip.
    expect(await creatorPage.getByRole("button", { name: "Send a tip" }).count()).toBe(0);

    const fanSide = await signedInPage(browser(), fan, PHONE, { colorScheme: "dark" });
    const fanPage = fanSide.page;
    await fanPage.goto(`/messages/${conversationId}`);
    await hydrated(fanPage);
    // A tip from the thread is a message in it: the fan's side shows it, the creator's open thread gets it live.
    await fanPage.getByRole("button", { name: "Send a tip" }).click();
    const tipDialog = fanPage.getByRole("dialog", { name: "Send a tip to Sam Star" });
    await tipDialog.getByRole("button", { name: "$5.00" }).click();
    await tipDialog.getByLabel("Message (optional)").fill("Thanks for the preview!");
    await tipDialog.getByRole("button", { name: "Send" }).click();
    await tipDialog.getByText("Your tip of $5.00 was sent. Thank you!").waitFor();
    await fanPage.keyboard.press("Escape");
    const fanTip = fanPage.getByTestId("message").filter({ has: fanPage.getByTestId("message-tip") });
    expect(await fanTip.getByTestId("message-tip").textContent()).toBe("You tipped $5.00");
    await fanTip.getByText("Thanks for the preview!").waitFor();
    const creatorTip = creatorPage.getByTestId("message").filter({ hasText: "Thanks for the preview!" });
    await creatorTip.getByTestId("message-tip").waitFor();
    expect(await creatorTip.getByTestId("message-tip").textContent()).toBe("Tipped you $5.00");
    await fanPage.getByRole("link", { name: "Chat media" }).click();
    await fanPage.waitForURL(`/messages/${conversationId}?view=media`);
    await fanPage.getByRole("heading", { name: "Chat media with Sam Star" }).waitFor();
    const lockedTile = fanPage.getByTestId("chat-media");
    expect(await lockedTile.getAttribute("data-locked")).toBe("true");
    expect(await lockedTile.textContent()).toBe("Locked · $3.00");
    expect(await lockedTile.getByRole("link").count()).toBe(0);
    expect(await seriousViolations(fanPage)).toEqual([]);

    for (const colorScheme of ["light", "dark"] as const) {
      await creatorPage.emulateMedia({ colorScheme });
      for (const path of [
        "/messages",
        `/messages/${conversationId}`,
        "/messages?view=mass",
        `/messages/${conversationId}?view=media`,
      ]) {
        await creatorPage.goto(path);
        await hydrated(creatorPage);
        expect([path, colorScheme, await seriousViolations(creatorPage)]).toEqual([path, colorScheme, []]);
      }
      // The sender's own photo is open in the gallery.
      expect(await creatorPage.getByTestId("chat-media").getAttribute("data-locked")).toBe("false");
      await creatorPage.getByRole("link", { name: "Open the photo" }).waitFor();
    }
  });

  it("in Arabic on a phone the thread runs right to left and sending works", async () => {
    const fan = fans[1]!;
    const conversationId = await conversationWithCreator(fan);
    const { page } = await signedInPage(browser(), fan, PHONE);
    await page.goto(`/messages/${conversationId}?lng=ar`);
    await hydrated(page);
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    await page.getByTestId("composer-input").fill("مرحبا سام");
    await page.getByTestId("composer-input").press("Enter");
    await page.locator("[data-testid='message'][data-mine='true'][data-seq]", { hasText: "مرحبا سام" }).waitFor();
    const stored = (await api(creator, "GET", `/conversations/${conversationId}/messages`)) as {
      messages: { text: string }[];
    };
    expect(stored.messages.map((message) => message.text)).toEqual([MASS_TEXT, "مرحبا سام"]);
  });

  it("removes a conversation from the list, and offline says so and keeps it", async () => {
    const fan = await createAccount({ username: `rm${unique().slice(-8)}`, name: "Rita Remove" });
    await api(fan, "POST", `/users/${creator.username}/follow`);
    const opened = (await api(fan, "POST", "/conversations", { username: creator.username })) as { id: number };
    await api(fan, "POST", `/conversations/${opened.id}/messages`, {
      clientId: crypto.randomUUID(),
      text: "Hello Sam",
    });
    const { page, context } = await signedInPage(browser(), fan, PHONE);
    await page.goto("/messages");
    await hydrated(page);
    const remove = page.getByRole("button", { name: "Remove the conversation with Sam Star" });
    await context.setOffline(true);
    await remove.click();
    await page.getByRole("alert").filter({ hasText: "You are offline" }).waitFor();
    expect(await remove.count()).toBe(1);
    await context.setOffline(false);
    await remove.click();
    await expect.poll(() => remove.count()).toBe(0);
    await page.reload();
    await hydrated(page);
    expect(await page.getByRole("button", { name: "Remove the conversation with Sam Star" }).count()).toBe(0);
    await context.close();
  });
});
