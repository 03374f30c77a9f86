import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createUser, insertPostMedium } from "./factories";

interface PostView {
  id: number;
  lock: string | null;
  media: { url: string }[] | null;
}
interface Profile {
  available: boolean;
  bio: string;
  postCount: number;
  mediaCount: number;
  likeCount: number;
  followerCount: number | null;
  following: boolean;
  posts: PostView[];
  nextCursor: string | null;
  viewer: { canEdit: boolean; canFollow: boolean; canTip: boolean; canReport: boolean; canBlock: boolean };
}

let clock = Date.parse("2026-01-01T00:00:00.000Z");

/** A published post with one ready image; each one a second newer than the last. */
async function createPost(authorId: number, audience: "everyone" | "followers" | "subscribers", withMedia = true) {
  const at = new Date((clock += 1000)).toISOString();
  const post = await env.DB.prepare(
    "INSERT INTO posts (user_id, text, audience, published_at, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(authorId, `${audience} post`, audience, at, at)
    .first<{ id: number }>();
  const key = `posts/${crypto.randomUUID().replace(/-/g, "")}.jpg`;
  if (withMedia) {
    await insertPostMedium(
      post!.id,
      env.DB.prepare(
        "INSERT INTO media (user_id, kind, status, object_key, content_type, size_bytes, created_at) VALUES (?, 'image', 'ready', ?, 'image/jpeg', 8, ?) RETURNING id",
      ).bind(authorId, key, at),
    );
  }
  return { id: post!.id, key };
}

const profileOf = async (username: string, token?: string) => {
  const response = await api(`/users/${username}`, { token });
  expect(response.status).toBe(200);
  return (await response.json()) as Profile;
};

describe("GET /api/users/{username}", () => {
  it("shows counts, open media and locked posts without keys; followers to the owner only", async () => {
    const creator = await createUser();
    const fan = await createUser();
    const open = await createPost(creator.user.userId, "everyone");
    const locked = await createPost(creator.user.userId, "subscribers");
    await createPost(creator.user.userId, "everyone", false);
    await env.DB.prepare("INSERT INTO likes (user_id, post_id, created_at) VALUES (?, ?, ?)")
      .bind(fan.user.userId, open.id, new Date().toISOString())
      .run();
    await api(`/users/${creator.user.username}/follow`, { method: "POST", token: fan.token });

    const asFan = await profileOf(creator.user.username, fan.token);
    expect(asFan).toMatchObject({
      available: true,
      postCount: 3,
      mediaCount: 2,
      likeCount: 1,
      followerCount: null,
      following: true,
      nextCursor: null,
    });
    expect(asFan.posts.find((p) => p.id === locked.id)).toMatchObject({ lock: "subscribe", media: null });
    const text = JSON.stringify(asFan);
    expect(text).toContain(open.key);
    expect(text).not.toContain(locked.key);
    expect(JSON.stringify(await profileOf(creator.user.username))).not.toContain(locked.key);

    const asOwner = await profileOf(creator.user.username.toUpperCase(), creator.token);
    expect(asOwner.followerCount).toBe(1);
    expect(JSON.stringify(asOwner)).toContain(locked.key);
  });

  it("pages posts with a cursor, and the media tab keeps only posts with media", async () => {
    const creator = await createUser();
    const ids: number[] = [];
    for (let i = 0; i < 23; i++) ids.push((await createPost(creator.user.userId, "everyone", i % 2 === 0)).id);
    const first = await profileOf(creator.user.username);
    expect(first.posts.map((p) => p.id)).toEqual(ids.slice(-20).reverse());
    const next = await api(`/users/${creator.user.username}/posts?cursor=${first.nextCursor}`);
    const second = (await next.json()) as { posts: PostView[]; nextCursor: string | null };
    expect(second).toEqual({ posts: expect.any(Array), nextCursor: null });
    expect(second.posts.map((p) => p.id)).toEqual(ids.slice(0, 3).reverse());

    const media = (await (await api(`/users/${creator.user.username}/posts?tab=media`)).json()) as {
      posts: PostView[];
      nextCursor: string | null;
    };
    expect(media.posts.map((p) => p.id)).toEqual(ids.filter((_, i) => i % 2 === 0).reverse());
    expect(media.nextCursor).toBeNull();

    expect((await api(`/users/${creator.user.username}/posts?cursor=garbage`)).status).toBe(422);
    expect((await api(`/users/${creator.user.username}/posts?tab=likes`)).status).toBe(422);
    expect((await api("/users/no_such_person/posts")).status).toBe(404);
  });

  it("is 404 for unknown and suspended users; across a block it is not available and shows no posts", async () => {
    const creator = await createUser();
    const blocked = await createUser();
    await createPost(creator.user.userId, "everyone");
    expect((await api("/users/no_such_person")).status).toBe(404);
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
      .bind(creator.user.userId, blocked.user.userId, new Date().toISOString())
      .run();
    const asBlocked = await profileOf(creator.user.username, blocked.token);
    expect(asBlocked).toMatchObject({ available: false, posts: [], postCount: 0, bio: "" });
    const morePosts = (await (await api(`/users/${creator.user.username}/posts`, { token: blocked.token })).json()) as {
      posts: PostView[];
    };
    expect(morePosts.posts).toEqual([]);
    expect((await profileOf(blocked.user.username, creator.token)).available).toBe(false);

    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), creator.user.userId)
      .run();
    expect((await api(`/users/${creator.user.username}`)).status).toBe(404);
  });

  it("says what the viewer may do: the owner edits, others follow, tip a creator, report and block; across a block only report and block", async () => {
    const creator = await createUser();
    const member = await createUser();
    const fan = await createUser();
    const blocked = await createUser();
    await env.DB.prepare("UPDATE users SET role = 'creator' WHERE id = ?").bind(creator.user.userId).run();
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
      .bind(blocked.user.userId, creator.user.userId, new Date().toISOString())
      .run();
    const none = { canEdit: false, canFollow: false, canTip: false, canReport: false, canBlock: false };
    expect((await profileOf(creator.user.username, creator.token)).viewer).toEqual({ ...none, canEdit: true });
    expect((await profileOf(creator.user.username, fan.token)).viewer).toEqual({
      ...none,
      canFollow: true,
      canTip: true,
      canReport: true,
      canBlock: true,
    });
    expect((await profileOf(member.user.username, fan.token)).viewer).toEqual({
      ...none,
      canFollow: true,
      canReport: true,
      canBlock: true,
    });
    expect((await profileOf(creator.user.username, blocked.token)).viewer).toEqual({
      ...none,
      canReport: true,
      canBlock: true,
    });
    expect((await profileOf(creator.user.username)).viewer).toEqual(none);
  });
});

describe("PUT /api/me/profile", () => {
  const put = (body: unknown, token?: string) =>
    api("/me/profile", { method: "PUT", token, body: typeof body === "string" ? body : JSON.stringify(body) });

  it("saves name, bio, location and website", async () => {
    const user = await createUser();
    const response = await put(
      { name: "  Mia R  ", bio: "Hello\nworld", location: "Lisbon", website: "https://mia.example/links" },
      user.token,
    );
    expect(response.status).toBe(200);
    const row = await env.DB.prepare("SELECT name, bio, location, website FROM users WHERE id = ?")
      .bind(user.user.userId)
      .first();
    expect(row).toEqual({
      name: "Mia R",
      bio: "Hello\nworld",
      location: "Lisbon",
      website: "https://mia.example/links",
    });
  });

  it("refuses bad input and changes nothing", async () => {
    const user = await createUser();
    const before = await env.DB.prepare("SELECT name, bio, location, website FROM users WHERE id = ?")
      .bind(user.user.userId)
      .first();
    for (const body of [
      { name: "" },
      { name: "x".repeat(61) },
      { name: "Mia", bio: "x".repeat(1001) },
      { name: "Mia", location: "x".repeat(61) },
      { name: "Mia", website: "http://mia.example" },
      { name: "Mia", website: "javascript:alert(1)" },
      { name: "Mia", website: "https://user:pw@mia.example" },
      { name: 5 },
      "not json",
    ]) {
      expect((await put(body, user.token)).status).toBe(422);
    }
    const website = await put({ name: "Mia", website: "ftp://x.example" }, user.token);
    expect(await website.json()).toMatchObject({ errors: { website: ["The website must be an https:// address."] } });
    expect((await put({ name: "Mia" })).status).toBe(401);
    expect(
      await env.DB.prepare("SELECT name, bio, location, website FROM users WHERE id = ?")
        .bind(user.user.userId)
        .first(),
    ).toEqual(before);
  });
});
