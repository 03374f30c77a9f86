import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createUser, postJson } from "./factories";
import { follow, makeCreator, PNG, subscribe } from "./timeline-fixtures";

/**
 * The vault's storage model (docs/decisions/vault.md): a content file is stored once and used by many posts,
 * messages and a story; /media opens it to whoever one of its uses is open to; deleting a use keeps the file, and
 * the vault deletes it only when nothing uses it.
 */

type Person = Awaited<ReturnType<typeof createUser>>;
const hex = () => crypto.randomUUID().replace(/-/g, "");

/** A finished photo of the creator's vault with its blurred preview and copies, each stored in R2. */
async function vaultPhoto(creatorId: number) {
  const keys = {
    original: `posts/${hex()}.png`,
    preview: `previews/${hex()}.png`,
    w640: `scaled/640/${hex()}.png`,
    w1280: `scaled/1280/${hex()}.png`,
  };
  for (const key of Object.values(keys)) await env.MEDIA.put(key, PNG);
  const row = await env.DB.prepare(
    `INSERT INTO media (user_id, kind, status, object_key, preview_key, w640_key, w1280_key, content_type, size_bytes, width, height, created_at)
     VALUES (?, 'image', 'ready', ?, ?, ?, ?, 'image/png', 8, 2000, 1500, ?) RETURNING id`,
  )
    .bind(creatorId, keys.original, keys.preview, keys.w640, keys.w1280, new Date().toISOString())
    .first<{ id: number }>();
  return { id: row!.id, keys };
}

async function createPost(creator: Person, body: Record<string, unknown>) {
  const response = await postJson("/posts", body, { token: creator.token });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; media: { id: number }[] | null };
}

async function sendMessage(from: Person, to: Person, body: Record<string, unknown>) {
  const opened = await postJson("/conversations", { username: to.user.username }, { token: from.token });
  expect(opened.status).toBe(200);
  const { id: conversationId } = (await opened.json()) as { id: number };
  const sent = await postJson(
    `/conversations/${conversationId}/messages`,
    { clientId: crypto.randomUUID(), text: "for you", ...body },
    { token: from.token },
  );
  expect(sent.status).toBe(200);
  return { conversationId, message: ((await sent.json()) as { message: { id: number } }).message };
}

/** The status /media answers for `key`: the body is read to the end (an unread R2 stream holds the storage). */
async function mediaStatus(key: string, token: string | null) {
  const response = await SELF.fetch(`https://app.test/media/${key}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  await response.arrayBuffer();
  return response.status;
}

const countMedia = async (creatorId: number) =>
  env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE user_id = ?").bind(creatorId).first<number>("n");

describe("the vault: one file, many uses", () => {
  it("a file in two posts with different audiences and in a paid message opens exactly what each viewer's uses open", async () => {
    const creator = await makeCreator();
    const [subscriber, member, buyer, otherCreator] = [
      await createUser(),
      await createUser(),
      await createUser(),
      await makeCreator(),
    ];
    await subscribe(subscriber.user.userId, creator.user.userId);
    await follow(buyer.user.userId, creator.user.userId);
    const photo = await vaultPhoto(creator.user.userId);

    const forSubscribers = await createPost(creator, {
      text: "subscribers",
      audience: "subscribers",
      mediaIds: [photo.id],
    });
    const payPerView = await createPost(creator, {
      text: "pay per view",
      audience: "everyone",
      priceCents: 900,
      mediaIds: [photo.id],
    });
    const { message } = await sendMessage(creator, buyer, { mediaIds: [photo.id], priceCents: 500 });
    await env.DB.prepare(
      "INSERT INTO message_purchases (message_id, user_id, price_cents, created_at) VALUES (?, ?, 500, ?)",
    )
      .bind(message.id, buyer.user.userId, new Date().toISOString())
      .run();
    // Stored once: three uses, one row, one object of each kind.
    expect(await countMedia(creator.user.userId)).toBe(1);
    expect((await env.MEDIA.list({ prefix: "posts/" })).objects.map((o) => o.key)).toEqual([photo.keys.original]);

    const { original, preview, w640, w1280 } = photo.keys;
    const full = { [original]: 200, [preview]: 200, [w640]: 200, [w1280]: 200 };
    const previewOnly = { [original]: 404, [preview]: 200, [w640]: 404, [w1280]: 404 };
    const viewers: [string, string | null, Record<string, number>][] = [
      ["owner", creator.token, full],
      // The subscribers' post is open to them.
      ["subscriber", subscriber.token, full],
      // Both posts exist for them, locked: the previews only.
      ["member", member.token, previewOnly],
      // The message they bought is open; the posts stay locked for them.
      ["buyer", buyer.token, full],
      ["other creator", otherCreator.token, previewOnly],
      ["visitor", null, previewOnly],
    ];
    for (const [name, token, expected] of viewers) {
      const answered = Object.fromEntries(
        await Promise.all(Object.keys(expected).map(async (key) => [key, await mediaStatus(key, token)] as const)),
      );
      expect(answered, name).toEqual(expected);
    }

    // The presenters still answer per use: a locked post names no key of the file, even to the buyer who may read
    // it through the message.
    for (const [name, token] of [
      ["member", member.token],
      ["buyer", buyer.token],
      ["visitor", undefined],
    ] as const) {
      for (const post of [forSubscribers, payPerView]) {
        const response = await api(`/posts/${post.id}`, { token });
        expect(response.status, name).toBe(200);
        const text = await response.text();
        for (const key of [original, w640, w1280]) expect(text, `${name} ${post.id}`).not.toContain(key);
        expect(text, name).toContain(preview);
      }
    }
    const subscribed = await (await api(`/posts/${forSubscribers.id}`, { token: subscriber.token })).text();
    expect(subscribed).toContain(w640);

    // The message unsent from every chat would leave the buyer with nothing; the file is still the posts'.
    await env.DB.prepare("DELETE FROM messages WHERE id = ?").bind(message.id).run();
    expect(await mediaStatus(original, buyer.token)).toBe(404);
    expect(await mediaStatus(preview, buyer.token)).toBe(200);
  });

  it("deleting a post keeps the file for its other uses and in the vault", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const photo = await vaultPhoto(creator.user.userId);
    const first = await createPost(creator, { text: "one", audience: "followers", mediaIds: [photo.id] });
    const second = await createPost(creator, { text: "two", audience: "followers", mediaIds: [photo.id] });
    expect(first.media!.map((m) => m.id)).toEqual([photo.id]);
    expect(second.media!.map((m) => m.id)).toEqual([photo.id]);

    expect((await api(`/posts/${first.id}`, { method: "DELETE", token: creator.token })).status).toBe(200);
    expect(await mediaStatus(photo.keys.original, fan.token)).toBe(200);
    expect((await api(`/posts/${second.id}`, { method: "DELETE", token: creator.token })).status).toBe(200);
    // No use left: the fan gets nothing, the owner still has it in the vault.
    expect(await mediaStatus(photo.keys.original, fan.token)).toBe(404);
    expect(await mediaStatus(photo.keys.original, creator.token)).toBe(200);
    expect(await countMedia(creator.user.userId)).toBe(1);
  });

  it("a post takes a file once; a message takes any finished vault file, used or not", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const photo = await vaultPhoto(creator.user.userId);
    expect(
      (await postJson("/posts", { audience: "everyone", mediaIds: [photo.id, photo.id] }, { token: creator.token }))
        .status,
    ).toBe(422);
    await createPost(creator, { text: "posted", audience: "everyone", mediaIds: [photo.id] });
    await sendMessage(creator, fan, { mediaIds: [photo.id] });
    await sendMessage(creator, fan, { mediaIds: [photo.id] });
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM message_media WHERE media_id = ?").bind(photo.id).first("n"),
    ).toBe(2);
    expect(await countMedia(creator.user.userId)).toBe(1);
  });

  it("a story takes a vault file; its followers read it, and it stays when the story goes", async () => {
    const creator = await makeCreator();
    const [fan, stranger] = [await createUser(), await createUser()];
    await follow(fan.user.userId, creator.user.userId);
    const photo = await vaultPhoto(creator.user.userId);
    const created = await postJson("/stories", { mediaId: photo.id, audience: "followers" }, { token: creator.token });
    expect(created.status).toBe(201);
    const story = (await created.json()) as { id: number; url: string };
    expect(story.url).toBe(`/media/${photo.keys.original}`);
    expect(await mediaStatus(photo.keys.original, fan.token)).toBe(200);
    expect(await mediaStatus(photo.keys.w640, fan.token)).toBe(200);
    expect(await mediaStatus(photo.keys.original, stranger.token)).toBe(404);
    // One story at a time.
    const again = await postJson("/stories", { mediaId: photo.id, audience: "everyone" }, { token: creator.token });
    expect(again.status).toBe(422);

    expect((await api(`/stories/${story.id}`, { method: "DELETE", token: creator.token })).status).toBe(204);
    expect(await mediaStatus(photo.keys.original, fan.token)).toBe(404);
    expect(await env.MEDIA.head(photo.keys.original)).not.toBeNull();
    expect(await countMedia(creator.user.userId)).toBe(1);
  });
});

describe("DELETE /api/vault/{mediaId} and its uses", () => {
  it("refuses while anything uses the file, saying where; deletes it and every stored object once unused", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const photo = await vaultPhoto(creator.user.userId);
    const post = await createPost(creator, { text: "in use", audience: "everyone", mediaIds: [photo.id] });
    const { conversationId, message } = await sendMessage(creator, fan, { mediaIds: [photo.id] });
    const story = (await (
      await postJson("/stories", { mediaId: photo.id, audience: "everyone" }, { token: creator.token })
    ).json()) as { id: number };
    const uses = [
      { kind: "message", id: message.id, conversationId },
      { kind: "post", id: post.id, conversationId: null },
      { kind: "story", id: story.id, conversationId: null },
    ];

    const listed = await api(`/vault/${photo.id}/uses`, { token: creator.token });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ uses });

    const refused = await api(`/vault/${photo.id}`, { method: "DELETE", token: creator.token });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      message: "This file is still used: remove it from where it is used first.",
      errors: {},
      uses,
    });
    const german = await api(`/vault/${photo.id}?lng=de`, { method: "DELETE", token: creator.token });
    expect(german.status).toBe(409);
    expect(await countMedia(creator.user.userId)).toBe(1);

    expect((await api(`/posts/${post.id}`, { method: "DELETE", token: creator.token })).status).toBe(200);
    expect((await api(`/stories/${story.id}`, { method: "DELETE", token: creator.token })).status).toBe(204);
    await env.DB.prepare("DELETE FROM messages WHERE id = ?").bind(message.id).run();
    expect(await (await api(`/vault/${photo.id}/uses`, { token: creator.token })).json()).toEqual({ uses: [] });

    expect((await api(`/vault/${photo.id}`, { method: "DELETE", token: creator.token })).status).toBe(204);
    expect(await countMedia(creator.user.userId)).toBe(0);
    for (const key of Object.values(photo.keys)) expect(await env.MEDIA.head(key), key).toBeNull();
    expect((await api(`/vault/${photo.id}`, { method: "DELETE", token: creator.token })).status).toBe(404);
  });

  it("a mass message naming the file is a use", async () => {
    const creator = await makeCreator();
    const photo = await vaultPhoto(creator.user.userId);
    const mass = await env.DB.prepare(
      "INSERT INTO mass_messages (sender_id, client_id, include_lists, text, media_ids, created_at, send_at) VALUES (?, ?, '[\"subscribers\"]', 'hi', ?, ?, datetime('now')) RETURNING id",
    )
      .bind(creator.user.userId, crypto.randomUUID(), JSON.stringify([photo.id]), new Date().toISOString())
      .first<number>("id");
    const refused = await api(`/vault/${photo.id}`, { method: "DELETE", token: creator.token });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { uses: unknown[] }).uses).toEqual([
      { kind: "mass", id: mass, conversationId: null },
    ]);
  });

  it("is the owner's alone: another creator, a fan and a visitor get 404 and change nothing", async () => {
    const creator = await makeCreator();
    const photo = await vaultPhoto(creator.user.userId);
    const avatar = await env.DB.prepare(
      "INSERT INTO media (user_id, purpose, kind, status, object_key, content_type, size_bytes, created_at) VALUES (?, 'avatar', 'image', 'ready', ?, 'image/png', 8, ?) RETURNING id",
    )
      .bind(creator.user.userId, `public/${hex()}.png`, new Date().toISOString())
      .first<number>("id");
    for (const token of [(await makeCreator()).token, (await createUser()).token]) {
      expect((await api(`/vault/${photo.id}/uses`, { token })).status).toBe(404);
      expect((await api(`/vault/${photo.id}`, { method: "DELETE", token })).status).toBe(404);
    }
    expect((await api(`/vault/${photo.id}/uses`)).status).toBe(401);
    expect((await api(`/vault/${photo.id}`, { method: "DELETE" })).status).toBe(401);
    // A profile image is no vault file.
    expect((await api(`/vault/${avatar}`, { method: "DELETE", token: creator.token })).status).toBe(404);
    expect((await api(`/vault/abc`, { method: "DELETE", token: creator.token })).status).toBe(422);
    expect(await countMedia(creator.user.userId)).toBe(2);
    expect(await env.MEDIA.head(photo.keys.original)).not.toBeNull();
  });
});
