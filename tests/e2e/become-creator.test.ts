import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { baseURL, browserForThisFile, createAccount, newPage, signedInPage, sql, unique } from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let member: Account;
let admin: Account;

const hex = () => crypto.randomUUID().replace(/-/g, "");
const AT = "2026-01-01T00:00:00.000Z";

/** An uploaded ID image as uploadFile leaves it (the upload itself is the media work's to test). */
const idImage = (username: string, purpose: string) =>
  `INSERT INTO media (user_id, purpose, kind, status, object_key, content_type, size_bytes, created_at)
     SELECT id, '${purpose}', 'image', 'ready', 'private/${hex()}.png', 'image/png', 8, '${AT}' FROM users WHERE username = '${username}';`;

beforeAll(async () => {
  const tag = `bc${unique().slice(-8)}`;
  member = await createAccount({ username: `${tag}_member`, name: "Maya Applicant" });
  admin = await createAccount({ username: `${tag}_admin`, name: "Ada Admin" });
  // Photo, cover and the ID images have their own screens and tests; here they are set up directly.
  sql(
    `UPDATE users SET email_verified_at = '${AT}', avatar_key = 'public/avatars/${hex()}.png', cover_key = 'public/covers/${hex()}.png' WHERE username = '${member.username}';
     UPDATE users SET role = 'admin' WHERE username = '${admin.username}';
     ${idImage(member.username, "id_document")}
     ${idImage(member.username, "id_selfie")}
     INSERT INTO creator_requests (user_id, document_media_id, selfie_media_id, created_at)
       SELECT u.id, (SELECT MIN(id) FROM media WHERE user_id = u.id), (SELECT MAX(id) FROM media WHERE user_id = u.id), '${AT}' FROM users u WHERE u.username = '${member.username}';`,
  );
});

async function accountMenu(page: Page) {
  await page.locator('[data-shell="sidebar"]').getByRole("button", { name: "Account menu" }).click();
  const menu = page.getByRole("menu");
  const names = await menu.getByRole("menuitem").evaluateAll((items) => items.map((item) => item.textContent?.trim()));
  await page.keyboard.press("Escape");
  return names;
}

describe("becoming a creator (spec §4)", () => {
  it("a pending member waits, an admin approves on /admin, the member is notified and gets the Dashboard", async () => {
    const applicant = await signedInPage(browser(), member);
    await applicant.page.goto("/becomeCreator", { waitUntil: "networkidle" });
    await applicant.page.getByText("Your application is pending validation.", { exact: false }).waitFor();
    expect(await applicant.page.getByRole("listitem").filter({ hasText: "Add a profile photo" }).getByText("Done").count()).toBe(1);
    expect(await accountMenu(applicant.page)).toEqual(["Settings", "Become a creator", "Logout"]);
    // Members do not even learn that /admin exists.
    expect((await applicant.page.goto("/admin"))?.status()).toBe(404);

    const reviewer = await signedInPage(browser(), admin);
    await reviewer.page.goto("/home", { waitUntil: "networkidle" });
    expect(await accountMenu(reviewer.page)).toEqual(["Settings", "Become a creator", "Admin", "Logout"]);
    await reviewer.page.goto("/admin", { waitUntil: "networkidle" });
    const application = reviewer.page.getByRole("listitem", { name: `Application of @${member.username}` });
    expect(await application.getByRole("img", { name: `ID document of @${member.username}` }).getAttribute("src")).toMatch(/^\/media\/private\/[a-f0-9]{32}\.png$/);
    await application.getByRole("button", { name: "Reject" }).click();
    await application.getByText("Please give a reason for the rejection.").waitFor();
    await application.getByRole("button", { name: "Approve" }).click();
    await reviewer.page.getByText("The request was approved.").waitFor();
    await expect.poll(() => application.count()).toBe(0);
    await reviewer.context.close();

    await applicant.page.goto("/notifications", { waitUntil: "networkidle" });
    await applicant.page.getByText("Your creator application was approved. You are now a creator.").waitFor();
    expect(await accountMenu(applicant.page)).toEqual(["Settings", "Dashboard", "Logout"]);
    await applicant.page.goto("/becomeCreator", { waitUntil: "networkidle" });
    expect(new URL(applicant.page.url()).pathname).toBe("/dashboard");
    await applicant.context.close();
  });
});

describe("the reports queue (issue 4)", () => {
  it("an admin suspends a reported user from /admin/reports; the user can no longer sign in", async () => {
    const tag = `rq${unique().slice(-8)}`;
    const offender = await createAccount({ username: `${tag}_spam`, name: "Spam Bot" });
    const reporter = await createAccount({ username: `${tag}_fan` });
    const report = await fetch(`${baseURL()}/api/reports`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${reporter.token}` },
      body: JSON.stringify({ targetKind: "user", username: offender.username, reason: "other", description: "Sends the same link to everyone" }),
    });
    expect(report.status).toBe(201);

    const reviewer = await signedInPage(browser(), admin);
    await reviewer.page.goto("/admin/reports", { waitUntil: "networkidle" });
    const item = reviewer.page.getByRole("listitem").filter({ hasText: `@${offender.username}` });
    await item.getByText("Sends the same link to everyone").waitFor();
    await item.getByRole("button", { name: "Suspend user" }).click();
    await reviewer.page.getByText("The report was handled.").waitFor();
    await expect.poll(() => reviewer.page.getByRole("listitem").filter({ hasText: `@${offender.username}` }).count()).toBe(0);
    await reviewer.context.close();

    const { page, context } = await newPage(browser());
    await page.goto("/login", { waitUntil: "networkidle" });
    await page.getByLabel("Email or username").fill(offender.email);
    await page.getByLabel("Password").fill(offender.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByText("This account has been suspended.").first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    await context.close();
  });
});

describe("blocked users (issue 4)", () => {
  it("Settings → Blocked users lists a blocked person and unblocks after confirmation", async () => {
    const tag = `bl${unique().slice(-8)}`;
    const blocker = await createAccount({ username: `${tag}_me` });
    const pest = await createAccount({ username: `${tag}_pest`, name: "Pat Pest" });
    const blocked = await fetch(`${baseURL()}/api/users/${pest.username}/block`, { method: "POST", headers: { Authorization: `Bearer ${blocker.token}` } });
    expect(blocked.status).toBe(200);

    const { page, context } = await signedInPage(browser(), blocker);
    await page.goto("/settings/blocked", { waitUntil: "networkidle" });
    const row = page.getByRole("listitem").filter({ hasText: `@${pest.username}` });
    await row.getByRole("button", { name: "Unblock" }).click();
    const dialog = page.getByRole("dialog", { name: `Unblock @${pest.username}?` });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await row.count()).toBe(1);

    await row.getByRole("button", { name: "Unblock" }).click();
    await dialog.getByRole("button", { name: "Unblock" }).click();
    await page.getByText("You have not blocked anyone").waitFor();
    const list = (await (await fetch(`${baseURL()}/api/blocks`, { headers: { Authorization: `Bearer ${blocker.token}` } })).json()) as { users: unknown[] };
    expect(list.users).toEqual([]);
    await context.close();
  });
});
