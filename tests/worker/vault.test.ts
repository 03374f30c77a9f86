import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { VaultAlbum, VaultItem, VaultPage } from "@shared/contracts/vault";
import { api, createUser, postJson } from "./factories";
import { createVerifiedCreator, newKey } from "./money-fixtures";
import { createPost, follow, makeCreator } from "./timeline-fixtures";

type Member = Awaited<ReturnType<typeof createUser>>;

const hex = () => crypto.randomUUID().replace(/-/g, "");

/** A file of `userId` as an upload leaves it: ready (or not), in no post, message or story. */
async function vaultFile(
  userId: number,
  options: { kind?: "image" | "video"; status?: string; purpose?: string; w640?: boolean } = {},
) {
  const kind = options.kind ?? "image";
  const key = `posts/${hex()}.${kind === "image" ? "png" : "mp4"}`;
  const w640Key = options.w640 ? `scaled/640/${hex()}.png` : null;
  const posterKey = kind === "video" ? `posters/${hex()}.jpg` : null;
  const row = await env.DB.prepare(
    `INSERT INTO media (user_id, purpose, kind, status, object_key, w640_key, poster_key, content_type, size_bytes, width, height, duration_ms, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 8, 800, 600, ?, ?) RETURNING id`,
  )
    .bind(
      userId,
      options.purpose ?? "post",
      kind,
      options.status ?? "ready",
      key,
      w640Key,
      posterKey,
      kind === "image" ? "image/png" : "video/mp4",
      kind === "video" ? 4000 : null,
      new Date().toISOString(),
    )
    .first<{ id: number }>();
  return { id: row!.id, key, w640Key, posterKey };
}

async function vaultOf(member: Member, query = ""): Promise<VaultPage> {
  const response = await api(`/vault${query}`, { token: member.token });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as VaultPage;
}

const idsOf = (page: VaultPage) => page.items.map((item) => item.id);

async function newAlbum(member: Member, name: string): Promise<VaultAlbum> {
  const response = await postJson("/vault/albums", { name }, { token: member.token });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as VaultAlbum;
}

const putInAlbum = (member: Member, albumId: number, mediaId: number) =>
  api(`/vault/albums/${albumId}/items/${mediaId}`, { method: "PUT", token: member.token });

describe("the vault's library", () => {
  it("lists the creator's finished content files alone, newest first, with their URLs and a thumbnail", async () => {
    const creator = await makeCreator();
    const other = await makeCreator();
    const id = creator.user.userId;
    const photo = await vaultFile(id, { w640: true });
    const plainPhoto = await vaultFile(id);
    const video = await vaultFile(id, { kind: "video" });
    await vaultFile(id, { status: "uploading" });
    await vaultFile(id, { purpose: "avatar" });
    await vaultFile(other.user.userId);

    const page = await vaultOf(creator);
    expect(idsOf(page)).toEqual([video.id, plainPhoto.id, photo.id]);
    expect(page.nextCursor).toBeNull();
    const byId = new Map(page.items.map((item) => [item.id, item]));
    expect(byId.get(photo.id)).toMatchObject({
      kind: "image",
      url: `/media/${photo.key}`,
      thumbnailUrl: `/media/${photo.w640Key}`,
      width: 800,
      height: 600,
      albumIds: [],
      useCount: 0,
      sent: null,
      bought: null,
    });
    expect(byId.get(plainPhoto.id)!.thumbnailUrl).toBe(`/media/${plainPhoto.key}`);
    expect(byId.get(video.id)).toMatchObject({
      kind: "video",
      thumbnailUrl: `/media/${video.posterKey}`,
      durationMs: 4000,
    });
  });

  it("filters by kind and pages by keyset without repeating or skipping a file", async () => {
    const creator = await makeCreator();
    const photos: number[] = [];
    for (let i = 0; i < 32; i++) photos.push((await vaultFile(creator.user.userId)).id);
    const video = await vaultFile(creator.user.userId, { kind: "video" });

    expect(idsOf(await vaultOf(creator, "?kind=video"))).toEqual([video.id]);
    const first = await vaultOf(creator, "?kind=image");
    expect(first.items).toHaveLength(30);
    expect(first.nextCursor).not.toBeNull();
    const second = await vaultOf(creator, `?kind=image&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(second.nextCursor).toBeNull();
    expect([...idsOf(first), ...idsOf(second)]).toEqual([...photos].reverse());
  });

  it("counts each use: posts, messages sent on their own, mass messages once, stories", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const file = await vaultFile(creator.user.userId);
    const unused = await vaultFile(creator.user.userId);
    // Two posts use it (post_media holds a post's files).
    for (let i = 0; i < 2; i++) {
      const post = await createPost(creator.user.userId);
      await env.DB.prepare("INSERT INTO post_media (post_id, media_id, position) VALUES (?, ?, 1)")
        .bind(post.id, file.id)
        .run();
    }
    const conversation = (await (
      await postJson("/conversations", { username: fan.user.username }, { token: creator.token })
    ).json()) as { id: number };
    const sent = await postJson(
      `/conversations/${conversation.id}/messages`,
      { clientId: newKey(), text: "", mediaIds: [file.id], priceCents: 0, maxPaidCents: 0 },
      { token: creator.token },
    );
    expect(sent.status, await sent.clone().text()).toBe(200);
    await env.DB.prepare(
      "INSERT INTO mass_messages (sender_id, client_id, include_lists, text, media_ids, status, created_at, send_at) VALUES (?, ?, '[\"followers\"]', 'hi', ?, 'sent', ?, datetime('now'))",
    )
      .bind(creator.user.userId, newKey(), JSON.stringify([file.id]), new Date().toISOString())
      .run();

    await env.DB.prepare(
      "INSERT INTO stories (creator_id, media_id, audience, created_at, expires_at) VALUES (?, ?, 'everyone', ?, ?)",
    )
      .bind(creator.user.userId, file.id, new Date().toISOString(), new Date(Date.now() + 86_400_000).toISOString())
      .run();

    const items = new Map((await vaultOf(creator)).items.map((item) => [item.id, item]));
    expect(items.get(file.id)!.useCount).toBe(2 + 1 + 1 + 1);
    expect(items.get(unused.id)!.useCount).toBe(0);
  });

  it("in one conversation, says whether its fan was sent each file and whether they bought it", async () => {
    const creator = await createVerifiedCreator();
    const [fan, otherFan] = [await createUser(), await createUser()];
    await follow(fan.user.userId, creator.user.userId);
    await follow(otherFan.user.userId, creator.user.userId);
    const [bought, sentOnly, sentElsewhere, never] = [
      await vaultFile(creator.user.userId),
      await vaultFile(creator.user.userId),
      await vaultFile(creator.user.userId),
      await vaultFile(creator.user.userId),
    ];
    const conversationWith = async (member: Member) =>
      (
        (await (
          await postJson("/conversations", { username: member.user.username }, { token: creator.token })
        ).json()) as { id: number }
      ).id;
    const withFan = await conversationWith(fan);
    const withOther = await conversationWith(otherFan);
    const send = async (conversationId: number, mediaIds: number[], priceCents: number) => {
      const response = await postJson(
        `/conversations/${conversationId}/messages`,
        { clientId: newKey(), text: "", mediaIds, priceCents, maxPaidCents: 0 },
        { token: creator.token },
      );
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as { message: { id: number } }).message.id;
    };
    const paid = await send(withFan, [bought.id], 500);
    await send(withFan, [sentOnly.id], 500);
    await send(withOther, [sentElsewhere.id], 0);
    await env.DB.prepare(
      "INSERT INTO message_purchases (message_id, user_id, price_cents, created_at) VALUES (?, ?, 500, ?)",
    )
      .bind(paid, fan.user.userId, new Date().toISOString())
      .run();

    const flags = (page: VaultPage) =>
      Object.fromEntries(page.items.map((item: VaultItem) => [item.id, [item.sent, item.bought]]));
    expect(flags(await vaultOf(creator, `?conversation=${withFan}`))).toEqual({
      [bought.id]: [true, true],
      [sentOnly.id]: [true, false],
      [sentElsewhere.id]: [false, false],
      [never.id]: [false, false],
    });
    expect(flags(await vaultOf(creator, `?conversation=${withOther}`))[sentElsewhere.id]).toEqual([true, false]);
    // A conversation the creator is not in is not found.
    const strangers = await createUser();
    await follow(strangers.user.userId, (await makeCreator()).user.userId);
    const otherCreator = await makeCreator();
    await follow(fan.user.userId, otherCreator.user.userId);
    const theirs = (
      (await (
        await postJson("/conversations", { username: fan.user.username }, { token: otherCreator.token })
      ).json()) as { id: number }
    ).id;
    expect((await api(`/vault?conversation=${theirs}`, { token: creator.token })).status).toBe(404);
  });
});

describe("albums", () => {
  it("make, list, rename, fill, filter by, empty and delete an album; its files stay in the vault", async () => {
    const creator = await makeCreator();
    const [a, b, c] = [
      await vaultFile(creator.user.userId),
      await vaultFile(creator.user.userId),
      await vaultFile(creator.user.userId),
    ];
    const beach = await newAlbum(creator, "  Beach  ");
    expect(beach).toMatchObject({ name: "Beach", itemCount: 0 });
    const city = await newAlbum(creator, "City");

    expect((await putInAlbum(creator, beach.id, a.id)).status).toBe(200);
    expect((await putInAlbum(creator, beach.id, c.id)).status).toBe(200);
    const again = await putInAlbum(creator, beach.id, c.id);
    expect(await again.json()).toEqual({ id: beach.id, name: "Beach", itemCount: 2 });
    expect((await putInAlbum(creator, city.id, c.id)).status).toBe(200);

    const albums = (await (await api("/vault/albums", { token: creator.token })).json()) as { albums: VaultAlbum[] };
    expect(albums.albums).toEqual([
      { id: beach.id, name: "Beach", itemCount: 2 },
      { id: city.id, name: "City", itemCount: 1 },
    ]);
    expect(idsOf(await vaultOf(creator, `?album=${beach.id}`))).toEqual([c.id, a.id]);
    expect(idsOf(await vaultOf(creator, `?album=${city.id}&kind=image`))).toEqual([c.id]);
    expect((await vaultOf(creator)).items.find((item) => item.id === c.id)!.albumIds).toEqual([beach.id, city.id]);

    const renamed = await api(`/vault/albums/${beach.id}`, {
      method: "PATCH",
      token: creator.token,
      body: JSON.stringify({ name: "Sea" }),
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({ id: beach.id, name: "Sea", itemCount: 2 });

    const removed = await api(`/vault/albums/${beach.id}/items/${a.id}`, { method: "DELETE", token: creator.token });
    expect(removed.status).toBe(204);
    expect(idsOf(await vaultOf(creator, `?album=${beach.id}`))).toEqual([c.id]);

    expect((await api(`/vault/albums/${beach.id}`, { method: "DELETE", token: creator.token })).status).toBe(204);
    expect((await api(`/vault?album=${beach.id}`, { token: creator.token })).status).toBe(404);
    expect(idsOf(await vaultOf(creator))).toEqual([c.id, b.id, a.id]);
  });

  it("refuses a file that is not a finished file of the creator's vault, and changes nothing", async () => {
    const creator = await makeCreator();
    const other = await makeCreator();
    const album = await newAlbum(creator, "Mine");
    const theirs = await vaultFile(other.user.userId);
    const unfinished = await vaultFile(creator.user.userId, { status: "uploading" });
    const avatar = await vaultFile(creator.user.userId, { purpose: "avatar" });
    for (const file of [theirs, unfinished, avatar]) {
      const response = await putInAlbum(creator, album.id, file.id);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { message: string }).message).toBe("This file is not in your vault.");
    }
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM vault_album_items WHERE album_id = ?")
      .bind(album.id)
      .first<{ n: number }>();
    expect(count!.n).toBe(0);
  });
});

describe("who may use the vault", () => {
  it("the owner only: another creator finds nothing of theirs, a fan is refused, a visitor must sign in", async () => {
    const owner = await makeCreator();
    const otherCreator = await makeCreator();
    const fan = await createUser();
    const file = await vaultFile(owner.user.userId);
    const album = await newAlbum(owner, "Private");
    expect((await putInAlbum(owner, album.id, file.id)).status).toBe(200);

    // Another creator: their own vault does not show it; the owner's album is not found for any action.
    expect(idsOf(await vaultOf(otherCreator))).not.toContain(file.id);
    expect((await api(`/vault?album=${album.id}`, { token: otherCreator.token })).status).toBe(404);
    expect(
      (
        await api(`/vault/albums/${album.id}`, {
          method: "PATCH",
          token: otherCreator.token,
          body: JSON.stringify({ name: "Taken" }),
        })
      ).status,
    ).toBe(404);
    expect((await api(`/vault/albums/${album.id}`, { method: "DELETE", token: otherCreator.token })).status).toBe(404);
    expect((await putInAlbum(otherCreator, album.id, file.id)).status).toBe(404);
    expect(
      (await api(`/vault/albums/${album.id}/items/${file.id}`, { method: "DELETE", token: otherCreator.token })).status,
    ).toBe(404);
    expect(
      ((await (await api("/vault/albums", { token: otherCreator.token })).json()) as { albums: VaultAlbum[] }).albums,
    ).toEqual([]);

    // A fan has no vault.
    for (const [method, path] of [
      ["GET", "/vault"],
      ["GET", "/vault/albums"],
      ["DELETE", `/vault/albums/${album.id}`],
      ["PUT", `/vault/albums/${album.id}/items/${file.id}`],
    ] as const)
      expect((await api(path, { method, token: fan.token })).status, `${method} ${path}`).toBe(403);
    expect((await postJson("/vault/albums", { name: "Mine" }, { token: fan.token })).status).toBe(403);

    // A visitor.
    expect((await api("/vault")).status).toBe(401);
    expect((await api("/vault/albums")).status).toBe(401);

    // Nothing changed.
    const albums = (await (await api("/vault/albums", { token: owner.token })).json()) as { albums: VaultAlbum[] };
    expect(albums.albums).toEqual([{ id: album.id, name: "Private", itemCount: 1 }]);
  });

  it("bad input is a translated 422 that changes nothing", async () => {
    const creator = await makeCreator();
    const album = await newAlbum(creator, "Keep");
    expect((await postJson("/vault/albums", { name: "two\nlines" }, { token: creator.token })).status).toBe(422);
    for (const name of ["", "   ", "x".repeat(41)]) {
      const response = await postJson("/vault/albums", { name }, { token: creator.token });
      expect(response.status, JSON.stringify(name)).toBe(422);
      const body = (await response.json()) as { errors: Record<string, string[]> };
      expect(body.errors.name).toEqual(["Give the album a name of up to 40 characters."]);
    }
    for (const query of ["?kind=audio", "?album=abc", "?conversation=0", "?cursor=nonsense"])
      expect((await api(`/vault${query}`, { token: creator.token })).status, query).toBe(422);
    const renamed = await api(`/vault/albums/${album.id}`, {
      method: "PATCH",
      token: creator.token,
      body: JSON.stringify({ name: "" }),
    });
    expect(renamed.status).toBe(422);
    const albums = (await (await api("/vault/albums", { token: creator.token })).json()) as { albums: VaultAlbum[] };
    expect(albums.albums).toEqual([{ id: album.id, name: "Keep", itemCount: 0 }]);
  });
});
