import { beforeAll, describe, expect, it } from "vitest";
import { buildJpeg } from "../support/media-fixtures";
import {
  baseURL,
  browserForThisFile,
  createAccount,
  fetchWithin,
  hydrated,
  newPage,
  seriousViolations,
  signedInPage,
  sql,
  unique,
} from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let fan: Account;
let creator: Account;
let openKey: string;
let lockedKey: string;
let lockedPreviewKey: string;
let openCopyKey: string;

beforeAll(async () => {
  const tag = `pr${unique().slice(-8)}`;
  fan = await createAccount({ username: `${tag}_fan`, name: "Fay Fan" });
  creator = await createAccount({ username: `${tag}.star`, name: "Cora Creator" });
  openKey = `posts/${tag}open.jpg`;
  lockedKey = `posts/${tag}locked.jpg`;
  lockedPreviewKey = `previews/${tag}locked.jpg`;
  openCopyKey = `scaled/640/${tag}open.jpg`;
  const at = new Date().toISOString();
  const author = `(SELECT id FROM users WHERE username = '${creator.username}')`;
  const media = (text: string, key: string, previewKey: string | null = null, w640Key: string | null = null) =>
    `INSERT INTO media (user_id, kind, status, object_key, preview_key, w640_key, width, height, content_type, size_bytes, created_at)
     VALUES (${author}, 'image', 'ready', '${key}', ${previewKey ? `'${previewKey}'` : "NULL"}, ${w640Key ? `'${w640Key}'` : "NULL"}, 3000, 2000, 'image/jpeg', 8, '${at}');
     INSERT INTO post_media (post_id, media_id, position)
       SELECT p.id, m.id, 0 FROM posts p, media m WHERE p.text = '${text}' AND m.object_key = '${key}';`;
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, bio = 'Painting every day', cover_key = 'public/covers/${tag}.jpg' WHERE username = '${creator.username}';
     INSERT INTO posts (user_id, text, audience, published_at, created_at) VALUES (${author}, '${tag} open to all', 'everyone', '${at}', '${at}');
     INSERT INTO posts (user_id, text, audience, published_at, created_at) VALUES (${author}, '${tag} for subscribers', 'subscribers', '${at}', '${at}');
     ${media(`${tag} open to all`, openKey, null, openCopyKey)}
     ${media(`${tag} for subscribers`, lockedKey, lockedPreviewKey)}`,
  );
  const plans = await fetchWithin(`${baseURL()}/api/me/plans`, {
    method: "PUT",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${creator.token}` },
    body: JSON.stringify({
      plans: [
        { period: "month", priceCents: 0 },
        { period: "year", priceCents: 4999 },
      ],
    }),
  });
  expect(plans.status).toBe(200);
});

describe("profiles", () => {
  it("a fan follows, subscribes free and then sees the subscriber post", async () => {
    const { page, context } = await signedInPage(browser(), fan);
    await page.goto(`/${creator.username}`);
    await hydrated(page);
    await page.getByRole("heading", { name: "Cora Creator" }).waitFor();
    expect(await page.getByText("Subscribe to see this post.").count()).toBe(1);
    expect(await page.locator(`img[src*="${lockedKey}"]`).count()).toBe(0);
    expect(await page.locator(`img[src*="${openKey}"]`).count()).toBe(1);
    // The locked post shows its blurred preview, fetched only when it comes near the screen.
    expect(
      await page
        .locator(`img[src="/media/${lockedPreviewKey}"]`)
        .evaluate((img: HTMLImageElement) => [img.loading, img.decoding]),
    ).toEqual(["lazy", "async"]);

    await page.getByRole("button", { name: "Follow" }).click();
    await page.getByRole("button", { name: "Following" }).waitFor();

    await page.getByRole("button", { name: "Subscribe" }).click();
    const plans = page
      .getByRole("dialog", { name: "Subscribe to Cora Creator" })
      .getByRole("list", { name: "Subscription plans" });
    expect(await plans.getByRole("button").allTextContents()).toEqual(["MonthlyFree", "Yearly$49.99"]);
    // A paid plan is confirmed first; this fan has not verified the email yet, so paying is refused.
    await plans.getByRole("button", { name: /Yearly/ }).click();
    await page.getByRole("button", { name: "Pay and subscribe" }).click();
    const unverified = page.getByRole("alert").filter({ hasText: "Your email didn't verified yet." });
    await unverified.getByRole("link", { name: "Verify your email" }).waitFor();

    await plans.getByRole("button", { name: /Monthly/ }).click();
    await page.getByText("Subscribed, renews on").waitFor();
    await page.locator(`img[src*="${lockedKey}"]`).waitFor({ state: "attached" }); // no file behind the key: the image has no size
    expect(await page.getByText("Subscribe to see this post.").count()).toBe(0);
    // The newest post with an image is now the subscribers' one: its image is asked for first, the other's lazily.
    expect(
      await page
        .locator(`img[src*="${lockedKey}"]`)
        .evaluate((img: HTMLImageElement) => [img.loading, img.getAttribute("fetchpriority")]),
    ).toEqual(["eager", "high"]);
    expect(
      await page
        .locator(`img[src*="${openKey}"]`)
        .evaluate((img: HTMLImageElement) => [img.loading, img.getAttribute("fetchpriority")]),
    ).toEqual(["lazy", null]);

    await page.getByRole("button", { name: "Cancel subscription" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Yes, cancel" }).click();
    await page.getByText("Subscribed until").waitFor();
    expect(await page.locator(`img[src*="${lockedKey}"]`).count()).toBe(1);
    await page.getByRole("button", { name: "Resubscribe" }).click();
    await page.getByText("Subscribed, renews on").waitFor();

    await page.goto("/settings/subscriptions");
    await hydrated(page);
    await page.getByRole("link", { name: /Cora Creator/ }).waitFor();
    expect(await page.locator("[data-subscription-status]").textContent()).toBe("Active");
    await context.close();
  });

  it("serves Open Graph tags without locked media, a 404 for unknown users, and the preview to its owner only", async () => {
    const html = await (await fetchWithin(`${baseURL()}/${creator.username}`)).text();
    expect(html).toContain('property="og:type" content="profile"');
    expect(html).toMatch(new RegExp(`property="og:image" content="https?://[^"]+/media/public/covers/`));
    expect(html).toContain(`property="og:url" content="${baseURL()}/${creator.username}"`);
    expect(html).toContain('property="og:description" content="Painting every day"');
    expect(html).not.toContain(lockedKey);
    // The first image a visitor may see is the page's likely largest paint: in the HTML, eager and asked for first.
    const image = html.match(new RegExp(`<img[^>]*${openKey}[^>]*>`))?.[0] ?? "";
    expect(image).toContain('loading="eager"');
    expect(image).toContain('fetchpriority="high"');

    expect((await fetchWithin(`${baseURL()}/no_such_person_here`)).status).toBe(404);
    expect((await fetchWithin(`${baseURL()}/${creator.username}/preview`)).status).toBe(404);
    const previewAs = (account: Account) =>
      fetchWithin(`${baseURL()}/${creator.username}/preview`, {
        headers: { Cookie: `__Host-session=${account.token}` },
      });
    expect((await previewAs(creator)).status).toBe(200);
    expect((await previewAs(fan)).status).toBe(404);
  });

  it("the owner edits name and bio, sees them, previews as a visitor and shares a QR code", async () => {
    const { page, context } = await signedInPage(browser(), creator);
    await page.goto("/settings/profile");
    await hydrated(page);
    await page.getByLabel("Name").fill("Cora the Painter");
    await page.getByLabel("Bio").fill("Oil and watercolour, at golden hours.");
    await page.getByLabel("Website").fill("http://insecure.example");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("The website must be an https:// address.").first().waitFor();
    await page.getByLabel("Website").fill("https://cora.example");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Your profile has been saved.").waitFor();
    await page
      .getByLabel("Avatar")
      .setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: Buffer.from(buildJpeg()) });
    await page.getByText("Your avatar has been saved.").waitFor();

    await page.goto(`/${creator.username}`);
    await hydrated(page);
    await page.getByRole("heading", { name: "Cora the Painter" }).waitFor();
    await page.getByText("Oil and watercolour").waitFor();
    expect(await page.getByRole("link", { name: "cora.example" }).getAttribute("rel")).toBe("nofollow ugc noopener");
    expect(await page.getByText("Followers").count()).toBe(1);
    expect(await page.getByRole("img", { name: "Avatar of Cora the Painter" }).getAttribute("src")).toMatch(
      /^\/media\/public\//,
    );

    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share this profile" });
    const qr = dialog.getByRole("img", { name: "QR code of the profile link" });
    await qr.waitFor();
    expect(await qr.getAttribute("src")).toMatch(/^data:image\/gif;base64,/);
    expect(await dialog.getByLabel("Profile link").inputValue()).toBe(`${baseURL()}/${creator.username}`);
    await dialog.getByRole("button", { name: "Close" }).click();

    await page.getByRole("link", { name: "Preview as visitor" }).click();
    await page.getByText("This is how visitors see this profile.").waitFor();
    expect(await page.getByText("Followers").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Follow" }).isDisabled()).toBe(true);

    // In Arabic, what people wrote in English keeps its own direction (the bio's full stop stays at its end).
    await page.goto(`/${creator.username}?lng=ar`);
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    const direction = (element: Element) => [element.getAttribute("dir"), getComputedStyle(element).direction];
    expect(await page.getByText("Oil and watercolour, at golden hours.").evaluate(direction)).toEqual(["auto", "ltr"]);
    expect(await page.getByText(/ open to all$/).evaluate(direction)).toEqual(["auto", "ltr"]);
    await context.close();
  });

  it("the creator sets plan prices on the dashboard", async () => {
    const { page, context } = await signedInPage(browser(), creator);
    await page.goto("/dashboard/plans");
    await hydrated(page);
    // The limits are written by the page's money format, as every amount is.
    await page.getByText("A price of 0 makes the plan free; paid plans cost $4.99 to $1,000.00.").waitFor();
    await page.getByText("0 makes messages free; at most $200.00.").waitFor();
    const weekly = page.getByRole("group", { name: "Weekly" });
    await weekly.getByLabel("Offer this plan").check();
    await weekly.getByLabel("Price in dollars").fill("2");
    await page.getByRole("button", { name: "Save plans" }).click();
    await weekly
      .getByRole("alert")
      .filter({ hasText: "A paid plan costs between $4.99 and $1,000.00; 0 makes it free." })
      .waitFor();
    await weekly.getByLabel("Price in dollars").fill("5.50");
    await page.getByRole("button", { name: "Save plans" }).click();
    await page.getByText("Your plans have been saved.").waitFor();
    const plans = await (await fetchWithin(`${baseURL()}/api/users/${creator.username}/plans`)).json();
    expect(plans).toEqual({
      plans: [
        { period: "week", priceCents: 550 },
        { period: "month", priceCents: 0 },
        { period: "year", priceCents: 4999 },
      ],
    });
    await context.close();
  });

  it("a visitor sees a sign-in Follow link and a gallery with the locked item blurred, without axe violations", async () => {
    const { page, context } = await newPage(browser());
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto(`/${creator.username}`);
      await hydrated(page);
      expect(await page.getByRole("link", { name: "Follow" }).getAttribute("href")).toBe(
        `/login?redirectTo=${encodeURIComponent(`/${creator.username}`)}`,
      );
      await page.getByRole("tab", { name: "Media" }).click();
      const gallery = page.getByRole("tabpanel");
      await gallery.getByRole("link", { name: "Locked media" }).waitFor();
      expect(await gallery.getByRole("link", { name: "Photo" }).count()).toBe(1);
      expect(await gallery.locator(`img[src*="${lockedKey}"]`).count()).toBe(0);
      // The open photo's tile offers its copy 640 pixels wide, which a tile needs rather than the original.
      expect(await gallery.getByRole("link", { name: "Photo" }).locator("img").getAttribute("srcset")).toBe(
        `/media/${openCopyKey} 640w, /media/${openKey} 3000w`,
      );
      expect(await gallery.locator("img[srcset]").count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
    }
    await context.close();
  });
});
