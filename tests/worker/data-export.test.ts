import { env, SELF } from "cloudflare:test";
import { unzipSync, strFromU8 } from "fflate";
import { describe, expect, it } from "vitest";
import type { DataExportState } from "@shared/contracts/data-exports";
import { api, createUser, latestMailTo, linkIn, postJson } from "./factories";
import { runScheduledJobsAndSettle } from "./entry";
import { stopClockAt } from "./clock";
import { fundWallet, newKey } from "./money-fixtures";
import { createPost, makeCreator, PNG, subscribe } from "./timeline-fixtures";
import { answerTo } from "./waits";
import { PART_BYTES, writeZipToR2 } from "../../worker/domain/data-exports/zip-to-r2";

type Member = Awaited<ReturnType<typeof createUser>>;

const DAY_MS = 86_400_000;

const stateOf = async (member: Member) =>
  (await (await api("/account/data-export", { token: member.token })).json()) as DataExportState;

const requestExport = (member: Member) => postJson("/account/data-export", {}, { token: member.token });

/** A page of the site (not /api), with a Bearer session or none, redirects not followed. */
const page = (path: string, token?: string) =>
  answerTo(
    `GET ${path}`,
    SELF.fetch(`https://app.test${path}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      redirect: "manual",
    }),
  );

async function conversationBetween(from: Member, to: Member): Promise<number> {
  const response = await postJson("/conversations", { username: to.user.username }, { token: from.token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: number }).id;
}

async function sendMessage(from: Member, conversationId: number, text: string) {
  const response = await postJson(
    `/conversations/${conversationId}/messages`,
    { clientId: newKey(), text },
    { token: from.token },
  );
  expect(response.status, await response.clone().text()).toBe(200);
}

async function comment(member: Member, postId: number, text: string) {
  const response = await postJson(`/posts/${postId}/comments`, { text }, { token: member.token });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** An owner with a post, a comment, a message received, a top-up; a stranger with private things of their own. */
async function seed() {
  const owner = await makeCreator();
  const fan = await createUser();
  const stranger = await makeCreator();
  const ownPost = await createPost(owner.user.userId, { text: "The owner's own post" });
  await comment(owner, ownPost.id, "The owner's own comment");
  await subscribe(fan.user.userId, owner.user.userId);
  await subscribe(fan.user.userId, stranger.user.userId);
  const withFan = await conversationBetween(fan, owner);
  await sendMessage(fan, withFan, "Hello owner, from a fan");
  await sendMessage(owner, withFan, "Thanks, fan");
  await fundWallet(owner.user.userId, 1234);

  const strangerPost = await createPost(stranger.user.userId, {
    text: "The stranger's subscribers-only post",
    audience: "subscribers",
  });
  await sendMessage(fan, await conversationBetween(fan, stranger), "A secret between the fan and the stranger");
  await fundWallet(stranger.user.userId, 9876);
  return { owner, fan, stranger, ownPost, strangerPost };
}

describe("a data export", () => {
  it("is a ZIP of the person's own data in R2, mailed as a link to a page only its owner downloads from", async () => {
    const { owner, stranger, ownPost, strangerPost } = await seed();

    const asked = await requestExport(owner);
    expect(asked.status).toBe(202);
    expect(((await asked.json()) as DataExportState).dataExport).toMatchObject({ status: "preparing" });

    // The queue's consumer ran as the request's waitUntil work (tests/worker/entry.ts).
    const state = await stateOf(owner);
    const dataExport = state.dataExport!;
    expect(dataExport).toMatchObject({ status: "ready", downloadPath: `/account/export/${dataExport.id}/download` });
    expect(Date.parse(dataExport.expiresAt!) - Date.parse(dataExport.createdAt)).toBeGreaterThanOrEqual(7 * DAY_MS);
    expect(Date.parse(dataExport.expiresAt!) - Date.parse(dataExport.createdAt)).toBeLessThan(7 * DAY_MS + 60_000);

    const mail = await latestMailTo(owner.input.email);
    expect(mail?.subject).toBe("Your data is ready to download");
    expect(linkIn(mail!.text_body)).toBe(`https://app.test/account/export/${dataExport.id}`);

    const row = await env.DB.prepare("SELECT object_key FROM data_exports WHERE id = ?")
      .bind(dataExport.id)
      .first<{ object_key: string }>();
    expect(row!.object_key).toMatch(/^exports\/[a-f0-9]{32}\.zip$/);
    // Not a /media key: the ZIP is served only by its own route.
    expect((await page(`/media/${row!.object_key}`, owner.token)).status).toBe(404);

    const download = await page(dataExport.downloadPath!, owner.token);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/zip");
    expect(download.headers.get("Cache-Control")).toBe("private, no-store");
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.length).toBe(dataExport.sizeBytes);
    const files = unzipSync(bytes);
    const json = (name: string) => JSON.parse(strFromU8(files[name]!)) as Record<string, unknown>;

    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        "README.txt",
        "profile.json",
        "posts.json",
        "comments.json",
        "messages.json",
        "subscriptions.json",
        "payments.json",
        "ledger.json",
        "media.json",
      ]),
    );
    expect(strFromU8(files["README.txt"]!)).toContain("messages.json");
    expect(json("profile.json")).toMatchObject({ username: owner.user.username, email: owner.input.email });
    expect(strFromU8(files["profile.json"]!)).not.toContain("password");

    expect(json("posts.json").posts).toEqual([
      expect.objectContaining({ id: ownPost.id, text: "The owner's own post" }),
    ]);
    expect(json("comments.json").comments).toEqual([
      expect.objectContaining({ postId: ownPost.id, text: "The owner's own comment" }),
    ]);
    expect(json("messages.json").messages).toEqual([
      expect.objectContaining({ direction: "received", text: "Hello owner, from a fan" }),
      expect.objectContaining({ direction: "sent", text: "Thanks, fan" }),
    ]);
    expect(json("payments.json").payments).toEqual([
      expect.objectContaining({ kind: "top_up", amountCents: 1234, status: "succeeded" }),
    ]);
    const ledger = json("ledger.json") as { accounts: unknown[]; lines: unknown[] };
    expect(ledger.accounts).toContainEqual({ account: "wallet", balanceCents: 1234 });
    expect(ledger.lines).toEqual([expect.objectContaining({ account: "wallet", amountCents: 1234, kind: "top_up" })]);

    const media = json("media.json").media as { id: number; file: string; postIds: number[] }[];
    expect(media).toEqual([expect.objectContaining({ postIds: [ownPost.id] })]);
    expect(files[media[0]!.file]).toEqual(PNG);

    const everything = Object.values(files)
      .map((file) => strFromU8(file))
      .join("\n");
    expect(everything).not.toContain("The stranger's subscribers-only post");
    expect(everything).not.toContain("A secret between the fan and the stranger");
    expect(everything).not.toContain("9876");
    expect(everything).not.toContain(stranger.input.email);
    expect(JSON.stringify(media)).not.toContain(strangerPost.key);

    // Anyone else: exactly as if there were no such export. Signed out: to the sign-in, then back to its page.
    expect((await page(dataExport.downloadPath!, stranger.token)).status).toBe(404);
    const signedOut = await page(dataExport.downloadPath!);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toBe(
      `/login?redirectTo=${encodeURIComponent(`/account/export/${dataExport.id}`)}`,
    );
    expect((await stateOf(stranger)).dataExport).toBeNull();
  });

  it("works for 7 days; then the link is gone and the cron deletes the ZIP", async () => {
    const { owner } = await seed();
    const started = Date.now();
    stopClockAt(new Date(started));
    expect((await requestExport(owner)).status).toBe(202);
    const { dataExport } = await stateOf(owner);
    const { object_key: key } = (await env.DB.prepare("SELECT object_key FROM data_exports WHERE id = ?")
      .bind(dataExport!.id)
      .first<{ object_key: string }>())!;

    stopClockAt(new Date(started + 7 * DAY_MS - 60_000));
    expect((await page(dataExport!.downloadPath!, owner.token)).status).toBe(200);
    await runScheduledJobsAndSettle(env);
    expect(await env.MEDIA.head(key)).not.toBeNull();

    stopClockAt(new Date(started + 7 * DAY_MS + 1000));
    // Gone at once, whether or not the cron has run yet.
    expect((await page(dataExport!.downloadPath!, owner.token)).status).toBe(410);
    expect((await stateOf(owner)).dataExport).toMatchObject({ status: "expired", downloadPath: null });

    await runScheduledJobsAndSettle(env);
    expect(await env.MEDIA.head(key)).toBeNull();
    const row = await env.DB.prepare("SELECT status FROM data_exports WHERE id = ?")
      .bind(dataExport!.id)
      .first<{ status: string }>();
    expect(row!.status).toBe("expired");
    expect((await page(dataExport!.downloadPath!, owner.token)).status).toBe(410);
  });

  it("is asked for once a day, and never while one is preparing", async () => {
    const owner = await createUser();
    const started = Date.now();
    stopClockAt(new Date(started));
    expect((await requestExport(owner)).status).toBe(202);

    const again = await requestExport(owner);
    expect(again.status).toBe(429);
    expect(((await again.json()) as { message: string }).message).toBe(
      "You can ask for a copy of your data once a day. Please try again in 24 hours.",
    );
    expect(Number(again.headers.get("Retry-After"))).toBe(24 * 3600);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM data_exports").first<{ n: number }>())!.n).toBe(1);
    expect((await stateOf(owner)).nextRequestAt).toBe(new Date(started + DAY_MS).toISOString());

    stopClockAt(new Date(started + DAY_MS + 1000));
    expect((await stateOf(owner)).nextRequestAt).toBeNull();
    // One still preparing (its queue message not yet consumed) keeps a second from starting.
    await env.DB.prepare("INSERT INTO data_exports (user_id, object_key, created_at) VALUES (?, ?, ?)")
      .bind(owner.user.userId, `exports/${"0".repeat(32)}.zip`, new Date(started + DAY_MS).toISOString())
      .run();
    const whilePreparing = await requestExport(owner);
    expect(whilePreparing.status).toBe(409);
    expect(((await whilePreparing.json()) as { message: string }).message).toBe(
      "Your data is already being prepared. We will email you when it is ready.",
    );
  });

  it("a stuck preparation is given up by the cron after a day, and the person may ask again", async () => {
    const owner = await createUser();
    const started = Date.now();
    stopClockAt(new Date(started));
    await env.DB.prepare("INSERT INTO data_exports (user_id, object_key, created_at) VALUES (?, ?, ?)")
      .bind(owner.user.userId, `exports/${"1".repeat(32)}.zip`, new Date(started).toISOString())
      .run();
    expect((await requestExport(owner)).status).toBe(409);
    stopClockAt(new Date(started + DAY_MS + 1000));
    await runScheduledJobsAndSettle(env);
    expect((await stateOf(owner)).dataExport).toMatchObject({ status: "failed" });
    expect((await requestExport(owner)).status).toBe(202);
    expect((await stateOf(owner)).dataExport).toMatchObject({ status: "ready" });
  });

  it("signed out, the API refuses", async () => {
    expect((await postJson("/account/data-export", {})).status).toBe(401);
    expect((await api("/account/data-export")).status).toBe(401);
  });
});

describe("the ZIP writer", () => {
  it("streams files larger than a part into R2 as several parts, byte for byte", async () => {
    // Two whole parts and a bit: the parts' boundaries fall inside the file, and the last part is short.
    const big = new Uint8Array(2 * PART_BYTES + 12_345);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + (i >> 13)) & 0xff;
    async function* inChunks(bytes: Uint8Array, size: number) {
      for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
    }
    async function* files() {
      yield { name: "small.txt", chunks: inChunks(new TextEncoder().encode("small"), 2) };
      yield { name: "media/big.bin", chunks: inChunks(big, 1_000_003) };
      yield { name: "empty.json", chunks: inChunks(new Uint8Array(0), 1) };
    }
    const size = await writeZipToR2(env.MEDIA, "exports/writer-test.zip", files());
    const stored = await env.MEDIA.get("exports/writer-test.zip");
    const bytes = new Uint8Array(await stored!.arrayBuffer());
    expect(bytes.length).toBe(size);
    const unzipped = unzipSync(bytes);
    expect(Object.keys(unzipped)).toEqual(["small.txt", "media/big.bin", "empty.json"]);
    expect(strFromU8(unzipped["small.txt"]!)).toBe("small");
    expect(unzipped["media/big.bin"]!.length).toBe(big.length);
    expect(unzipped["media/big.bin"]!.every((byte, i) => byte === big[i])).toBe(true);
  });
});
