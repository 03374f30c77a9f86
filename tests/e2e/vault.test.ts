import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  apiAs as api,
  baseURL,
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
let fan: Account;

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const png = (name: string) => ({ name, mimeType: "image/png", buffer: PNG });

/** The Arabic texts; a key the translators have not reached yet shows in English, as the page shows it. */
const ARABIC = JSON.parse(readFileSync("app/locales/ar.json", "utf8")) as Record<string, string>;

type Variant = { name: string; colorScheme: "light" | "dark"; language: "en" | "ar" };
const VARIANTS: Variant[] = [
  { name: "light", colorScheme: "light", language: "en" },
  { name: "dark", colorScheme: "dark", language: "en" },
  { name: "Arabic", colorScheme: "light", language: "ar" },
];

beforeAll(async () => {
  const tag = `vt${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}_star`, name: "Vera Vault" });
  fan = await createAccount({ username: `${tag}_fan`, name: "Finn Fan" });
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, watermark = 0, email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}';`,
  );
  await api(fan, "POST", `/users/${creator.username}/follow`);
});

const vaultItems = (page: Page) => page.locator("ul[data-vault-grid] > li[data-vault-item]");

/** Uploads files into the vault from /vault and waits for each one's bar to say it is done. */
async function uploadIntoVault(page: Page, names: string[]) {
  await page.getByTestId("vault-files").setInputFiles(names.map(png));
  for (const name of names) await page.getByRole("progressbar", { name: `${name} uploaded` }).waitFor();
}

describe("the vault", () => {
  it("uploads two files at once with a bar each, makes an album, puts one in and filters by it", async () => {
    const { page } = await signedInPage(browser(), creator);
    await page.goto("/vault");
    await hydrated(page);
    const before = await vaultItems(page).count();

    // Each file has its own progress bar while it uploads.
    await page.getByTestId("vault-files").setInputFiles([png("first.png"), png("second.png")]);
    await page.getByRole("progressbar", { name: /first\.png/ }).waitFor();
    await page.getByRole("progressbar", { name: /second\.png/ }).waitFor();
    await page.getByRole("progressbar", { name: "first.png uploaded" }).waitFor();
    await page.getByRole("progressbar", { name: "second.png uploaded" }).waitFor();
    await expect.poll(() => vaultItems(page).count()).toBe(before + 2);

    await page.getByLabel("New album name").fill("Beach days");
    await page.getByRole("button", { name: "Create album" }).click();
    await page.getByRole("status").getByText("Album created.").waitFor();
    await page.locator("[data-album='Beach days']").waitFor();

    // The newest file goes into the album.
    const newest = vaultItems(page).first();
    const newestId = await newest.getAttribute("data-vault-item");
    await newest.getByText("Albums").click();
    const put = page.waitForResponse((response) => response.request().method() === "PUT");
    await newest.getByRole("checkbox", { name: "Beach days" }).check();
    expect((await put).status()).toBe(200);

    await page.getByRole("combobox", { name: "Album" }).selectOption({ label: "Beach days" });
    await page.waitForURL(/[?&]album=\d+/);
    await expect.poll(() => vaultItems(page).count()).toBe(1);
    expect(await vaultItems(page).first().getAttribute("data-vault-item")).toBe(newestId);
    await page.getByRole("combobox", { name: "Show" }).selectOption({ label: "Videos" });
    await expect.poll(() => vaultItems(page).count()).toBe(0);
  });

  it("in a chat, a photo picked from the vault is sent without an upload request, and the fan sees it", async () => {
    const creatorSide = await signedInPage(browser(), creator);
    const page = creatorSide.page;
    await page.goto("/vault");
    await hydrated(page);
    await uploadIntoVault(page, ["for-finn.png"]);
    await expect
      .poll(() => page.locator("ul[data-vault-grid] > li").first().getAttribute("data-vault-item"))
      .not.toBeNull();
    const photoId = await vaultItems(page).first().getAttribute("data-vault-item");

    const conversation = (await api(creator, "POST", "/conversations", { username: fan.username })) as { id: number };
    await page.goto(`/messages/${conversation.id}`);
    await hydrated(page);

    const uploadRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/uploads")) uploadRequests.push(request.url());
    });

    await page.getByRole("button", { name: "From vault", exact: true }).click();
    const picker = page.locator("dialog[data-vault-picker]");
    const item = picker.locator(`li[data-vault-item='${photoId}']`);
    await item.waitFor();
    // This fan was never sent it.
    await item.getByText("Not sent").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await item.locator("label").click();
    await picker.getByRole("status").getByText("1 selected").waitFor();
    await picker.getByRole("button", { name: "Add" }).click();
    await page.locator("[data-upload-state='ready']").getByText("From vault", { exact: true }).waitFor();

    await page.getByTestId("composer-input").fill("From my vault");
    const sent = page.waitForResponse(
      (response) => response.request().method() === "POST" && new URL(response.url()).pathname.endsWith("/messages"),
    );
    await page.getByTestId("send-button").click();
    const answer = (await (await sent).json()) as { message: { media: { id: number }[] } };
    expect(answer.message.media.map((media) => media.id)).toEqual([Number(photoId)]);
    expect(uploadRequests).toEqual([]);

    // The fan, in their own browser, sees the photo.
    const fanSide = await signedInPage(browser(), fan, { width: 390, height: 844 });
    await fanSide.page.goto(`/messages/${conversation.id}`);
    await hydrated(fanSide.page);
    const received = fanSide.page.locator("[data-testid='message']", { hasText: "From my vault" });
    await received.locator("img").first().waitFor();

    // Picked again for this fan, the photo now says it was sent.
    await page.getByRole("button", { name: "From vault", exact: true }).click();
    await picker.locator(`li[data-vault-item='${photoId}']`).getByText("Sent", { exact: true }).waitFor();
    expect(uploadRequests).toEqual([]);
  });

  for (const variant of VARIANTS)
    it(`/vault and the picker have no serious accessibility findings (${variant.name})`, async () => {
      const { context, page } = await signedInPage(browser(), creator, undefined, { colorScheme: variant.colorScheme });
      if (variant.language === "ar") await context.addCookies([{ name: "i18nextLng", value: "ar", url: baseURL() }]);
      const tr = (key: string) => (variant.language === "ar" ? (ARABIC[key] ?? key) : key);
      await page.goto("/vault");
      await hydrated(page);
      expect(await page.locator("html").getAttribute("dir")).toBe(variant.language === "ar" ? "rtl" : "ltr");
      await vaultItems(page).first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto("/home#compose");
      await hydrated(page);
      await page.getByRole("button", { name: tr("From vault"), exact: true }).click();
      await page.locator("dialog[data-vault-picker] li[data-vault-item]").first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
});
