import { beforeAll, describe, expect, it } from "vitest";
import { baseURL, browserForThisFile, createAccount, hydrated, seriousViolations, signedInPage, sql, unique } from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let fan: Account;
let creator: Account;

/** The Messages badge's number for an account, as /api/updates answers it. */
const unreadOf = async (account: Account) => {
  const response = await fetch(`${baseURL()}/api/updates`, { headers: { Authorization: `Bearer ${account.token}` } });
  return ((await response.json()) as { updates: { messages: number } }).updates.messages;
};

beforeAll(async () => {
  const tag = `ms${unique().slice(-8)}`;
  fan = await createAccount({ username: `${tag}_fan`, name: "Fiona Fan" });
  creator = await createAccount({ username: `${tag}_star`, name: "Sam Star" });
  await sql(`UPDATE users SET role = 'creator', email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}';`);
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
    await fanPage.getByRole("alert").getByText("You can message creators you follow or subscribe to, your own fans, and people who follow you back.").waitFor();
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
    const fanMessage = fanPage.locator("[data-testid='message'][data-mine='true'][data-seq]", { hasText: "Hello Sam!" });
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
    const seqs = await creatorPage.getByTestId("message").evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute("data-seq"))));
    expect(seqs).toEqual([1, 2, 3]);
  });
});
