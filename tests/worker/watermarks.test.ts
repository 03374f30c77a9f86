import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MessageView } from "@shared/contracts/messages";
import type { PostView } from "@shared/contracts/posts";
import { segment } from "../support/media-fixtures";
import { api, createUser, postJson } from "./factories";
import { createFan, createVerifiedCreator } from "./money-fixtures";
import { subscribe } from "./timeline-fixtures";

type Member = Awaited<ReturnType<typeof createUser>>;

/**
 * A bare baseline JPEG `width`×`height` (structure only: SOI, SOF0, SOS, a scan, EOI), nothing the server's
 * metadata cleaning removes, so what it stores is byte for byte what was sent. `scan` tells two pictures apart.
 */
const jpeg = (width: number, height: number, scan: number) =>
  Uint8Array.from([
    0xff,
    0xd8,
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    ...segment(0xda, [1, 1, 0, 0, 0x3f, 0]),
    scan,
    0x34,
    0x56,
    0xff,
    0xd9,
  ]);

const putBytes = (path: string, bytes: Uint8Array, token: string) =>
  api(path, {
    method: "PUT",
    body: new Uint8Array(bytes),
    token,
    headers: { "Content-Type": "application/octet-stream" },
  });

async function readMedia(url: string, token?: string) {
  const headers = new Headers();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  const response = await SELF.fetch(`https://app.test${url}`, { headers });
  return { status: response.status, body: new Uint8Array(await response.arrayBuffer()) };
}

interface MediaRow {
  object_key: string;
  marked_key: string | null;
  w640_key: string | null;
  watermark: string | null;
  status: string;
}
const mediaRow = (id: number) => env.DB.prepare("SELECT * FROM media WHERE id = ?").bind(id).first<MediaRow>();

/** Starts a photo's upload and sends its one part: what the server asked to mark it with, and its id. */
async function startPhoto(member: Member, original: Uint8Array, purpose = "post") {
  const started = await postJson(
    "/uploads",
    { purpose, fileName: "photo.jpg", contentType: "image/jpeg", size: original.length },
    { token: member.token },
  );
  expect(started.status).toBe(201);
  const { mediaId, watermark } = (await started.json()) as { mediaId: number; watermark: string | null };
  expect((await putBytes(`/uploads/${mediaId}/parts/1`, original, member.token)).status).toBe(200);
  return { mediaId, watermark };
}

const complete = (member: Member, mediaId: number) =>
  postJson(`/uploads/${mediaId}/complete`, {}, { token: member.token });

/** A marked photo 1000×2 as the creator's browser sends it: the original, its copy 640 wide and its marked copy. */
async function markedPhoto(creator: Member, purpose = "post") {
  const original = jpeg(1000, 2, 0x10);
  const marked = jpeg(1000, 2, 0x20);
  const { mediaId, watermark } = await startPhoto(creator, original, purpose);
  expect(watermark).toBe(`app.test/${creator.user.username}`);
  expect((await putBytes(`/uploads/${mediaId}/w640`, jpeg(640, 1, 0x30), creator.token)).status).toBe(200);
  expect((await putBytes(`/uploads/${mediaId}/marked`, marked, creator.token)).status).toBe(200);
  expect((await complete(creator, mediaId)).status).toBe(200);
  const row = (await mediaRow(mediaId))!;
  return { mediaId, original, marked, row };
}

async function creatorWithSubscriber() {
  const creator = await createVerifiedCreator();
  const fan = await createFan();
  await subscribe(fan.user.userId, creator.user.userId);
  return { creator, fan };
}

async function postOf(member: Member, postId: number): Promise<PostView> {
  const response = await api(`/posts/${postId}`, { token: member.token });
  expect(response.status).toBe(200);
  return (await response.json()) as PostView;
}

describe("watermarks on a creator's photos", () => {
  it("serve a subscriber the marked copy (its bytes as uploaded) and never the original, which the creator alone gets", async () => {
    const { creator, fan } = await creatorWithSubscriber();
    const { mediaId, original, marked, row } = await markedPhoto(creator);
    expect(row).toMatchObject({ status: "ready", watermark: `app.test/${creator.user.username}` });
    expect(row.marked_key).toMatch(/^marked\/[a-f0-9]{32}\.jpg$/);
    const created = await postJson(
      "/posts",
      { text: "marked", audience: "subscribers", mediaIds: [mediaId] },
      { token: creator.token },
    );
    expect(created.status).toBe(201);
    const { id: postId } = (await created.json()) as PostView;

    const seen = await postOf(fan, postId);
    expect(seen.media![0]).toMatchObject({
      url: `/media/${row.marked_key}`,
      scaled: [{ width: 640, url: `/media/${row.w640_key}` }],
    });
    expect(JSON.stringify(seen)).not.toContain(row.object_key);
    const feed = await (await api(`/users/${creator.user.username}/posts`, { token: fan.token })).text();
    expect(feed).toContain(row.marked_key);
    expect(feed).not.toContain(row.object_key);

    const served = await readMedia(`/media/${row.marked_key}`, fan.token);
    expect(served.status).toBe(200);
    expect(served.body).toEqual(marked);
    expect((await readMedia(`/media/${row.object_key}`, fan.token)).status).toBe(404);
    expect((await readMedia(`/media/${row.w640_key}`, fan.token)).status).toBe(200);

    const own = await postOf(creator, postId);
    expect(own.media![0]).toMatchObject({ url: `/media/${row.object_key}`, scaled: [] });
    const originalServed = await readMedia(`/media/${row.object_key}`, creator.token);
    expect(originalServed.status).toBe(200);
    expect(originalServed.body).toEqual(original);
    // Someone the post is not open to gets neither.
    const outsider = await createFan();
    expect((await readMedia(`/media/${row.marked_key}`, outsider.token)).status).toBe(404);
  });

  it("serve a message's photo marked to its recipient, the original to its sender; a locked one shows no file", async () => {
    const { creator, fan } = await creatorWithSubscriber();
    const conversation = await postJson("/conversations", { username: fan.user.username }, { token: creator.token });
    const { id: conversationId } = (await conversation.json()) as { id: number };
    const free = await markedPhoto(creator, "message");
    const paid = await markedPhoto(creator, "message");
    for (const [photo, priceCents] of [
      [free, 0],
      [paid, 500],
    ] as const) {
      const sent = await postJson(
        `/conversations/${conversationId}/messages`,
        { clientId: crypto.randomUUID(), text: "look", mediaIds: [photo.mediaId], priceCents },
        { token: creator.token },
      );
      expect(sent.status, await sent.clone().text()).toBe(200);
      const { message } = (await sent.json()) as { message: MessageView };
      expect(message.media[0]).toMatchObject({ url: `/media/${photo.row.object_key}`, scaled: [] });
    }
    const page = (await (await api(`/conversations/${conversationId}/messages`, { token: fan.token })).json()) as {
      messages: MessageView[];
    };
    const [openMessage, lockedMessage] = [...page.messages].sort((a, b) => a.seq - b.seq);
    expect(openMessage!.media[0]).toMatchObject({ url: `/media/${free.row.marked_key}` });
    expect(lockedMessage!.media[0]).toMatchObject({ url: null, scaled: [] });
    const text = JSON.stringify(page);
    for (const key of [free.row.object_key, paid.row.object_key, paid.row.marked_key!]) expect(text).not.toContain(key);
    expect((await readMedia(`/media/${free.row.marked_key}`, fan.token)).body).toEqual(free.marked);
    expect((await readMedia(`/media/${free.row.object_key}`, fan.token)).status).toBe(404);
    expect((await readMedia(`/media/${paid.row.marked_key}`, fan.token)).status).toBe(404);
  });

  it("refuse to complete a marked photo without its marked copy, or with one of another size", async () => {
    const creator = await createVerifiedCreator();
    const { mediaId } = await startPhoto(creator, jpeg(1000, 2, 0x10));
    const refused = await complete(creator, mediaId);
    expect(refused.status).toBe(422);
    const expected = "This photo is marked: send its marked copy before completing it.";
    expect(await refused.json()).toEqual({ message: expected, errors: { file: [expected] } });
    expect(await mediaRow(mediaId)).toMatchObject({ status: "uploading", marked_key: null });
    // The browser sends it and completes again.
    expect((await putBytes(`/uploads/${mediaId}/marked`, jpeg(1000, 2, 0x20), creator.token)).status).toBe(200);
    expect((await complete(creator, mediaId)).status).toBe(200);

    const wrong = await startPhoto(creator, jpeg(1000, 2, 0x10));
    expect((await putBytes(`/uploads/${wrong.mediaId}/marked`, jpeg(999, 2, 0x20), creator.token)).status).toBe(200);
    const mismatch = await complete(creator, wrong.mediaId);
    expect(mismatch.status).toBe(422);
    expect(((await mismatch.json()) as { message: string }).message).toBe(
      "The marked copy is not the size of the photo. Please upload it again.",
    );
    expect(await mediaRow(wrong.mediaId)).toBeNull();
  });

  it("turned off, leave photos uploaded afterwards unmarked: fans get the original as before; earlier ones stay marked", async () => {
    const { creator, fan } = await creatorWithSubscriber();
    const before = await markedPhoto(creator);
    const off = await api("/settings/watermark", {
      method: "PUT",
      body: JSON.stringify({ on: false }),
      token: creator.token,
    });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ on: false, text: `app.test/${creator.user.username}` });

    const original = jpeg(1000, 2, 0x40);
    const { mediaId, watermark } = await startPhoto(creator, original);
    expect(watermark).toBeNull();
    const notMarked = await putBytes(`/uploads/${mediaId}/marked`, jpeg(1000, 2, 0x20), creator.token);
    expect(notMarked.status).toBe(422);
    expect((await complete(creator, mediaId)).status).toBe(200);
    const row = (await mediaRow(mediaId))!;
    expect(row).toMatchObject({ watermark: null, marked_key: null });
    const created = await postJson(
      "/posts",
      { text: "plain", audience: "subscribers", mediaIds: [before.mediaId, mediaId] },
      { token: creator.token },
    );
    const { id: postId } = (await created.json()) as PostView;
    const [earlier, later] = (await postOf(fan, postId)).media!;
    expect(earlier!.url).toBe(`/media/${before.row.marked_key}`);
    expect(later!.url).toBe(`/media/${row.object_key}`);
    expect((await readMedia(`/media/${row.object_key}`, fan.token)).body).toEqual(original);
  });

  it("is a creator's setting, on by default: read and changed through the API, checked", async () => {
    const creator = await createVerifiedCreator();
    const got = await api("/settings/watermark", { token: creator.token });
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ on: true, text: `app.test/${creator.user.username}` });
    const put = (body: unknown, token?: string) =>
      api("/settings/watermark", { method: "PUT", body: JSON.stringify(body), token });
    expect((await put({ on: false }, creator.token)).status).toBe(200);
    expect(await (await api("/settings/watermark", { token: creator.token })).json()).toMatchObject({ on: false });
    expect((await put({ on: true }, creator.token)).status).toBe(200);
    expect(await (await api("/settings/watermark", { token: creator.token })).json()).toMatchObject({ on: true });

    for (const bad of [{ on: "yes" }, {}, { on: 1 }]) expect((await put(bad, creator.token)).status).toBe(422);
    const member = await createUser();
    const forbidden = await api("/settings/watermark", { token: member.token });
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { message: string }).message).toBe("Only creators can mark their photos.");
    expect((await put({ on: false }, member.token)).status).toBe(403);
    expect((await api("/settings/watermark")).status).toBe(401);
    // A member's chat photo is never marked.
    expect((await startPhoto(member, jpeg(10, 2, 0x10), "message")).watermark).toBeNull();
  });
});
