import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getProfile } from "../../worker/domain/profiles/get-profile";
import { createUser, insertPostMedium } from "./factories";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function createPost(userId: number, audience: "everyone" | "followers" | "subscribers") {
  const at = new Date().toISOString();
  const post = await env.DB.prepare(
    "INSERT INTO posts (user_id, text, audience, published_at, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(userId, `a ${audience} post`, audience, at, at)
    .first<{ id: number }>();
  const key = `posts/${crypto.randomUUID().replace(/-/g, "")}.png`;
  await env.MEDIA.put(key, PNG, { httpMetadata: { contentType: "image/png" } });
  await insertPostMedium(
    post!.id,
    env.DB.prepare(
      "INSERT INTO media (user_id, kind, status, object_key, content_type, size_bytes, created_at) VALUES (?, 'image', 'ready', ?, 'image/png', 8, ?) RETURNING id",
    ).bind(userId, key, at),
  );
  return { postId: post!.id, key };
}

/** Reads the body to the end: an unread R2 stream would keep the test's isolated storage open. */
async function fetchMedia(key: string, token?: string) {
  const response = await SELF.fetch(`https://app.test/media/${key}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body };
}

/** A video on a post, with its poster frame and blurred preview stored beside it. */
async function createVideoPost(userId: number, audience: "everyone" | "subscribers", status = "published") {
  const at = new Date().toISOString();
  const post = await env.DB.prepare(
    "INSERT INTO posts (user_id, text, audience, status, published_at, created_at) VALUES (?, 'video', ?, ?, ?, ?) RETURNING id",
  )
    .bind(userId, audience, status, status === "published" ? at : null, at)
    .first<{ id: number }>();
  const hex = () => crypto.randomUUID().replace(/-/g, "");
  const keys = { original: `posts/${hex()}.mp4`, poster: `posters/${hex()}.jpg`, preview: `previews/${hex()}.jpg` };
  for (const key of Object.values(keys)) await env.MEDIA.put(key, PNG);
  await insertPostMedium(
    post!.id,
    env.DB.prepare(
      "INSERT INTO media (user_id, kind, status, object_key, poster_key, preview_key, content_type, size_bytes, created_at) VALUES (?, 'video', 'ready', ?, ?, ?, 'video/mp4', 8, ?) RETURNING id",
    ).bind(userId, keys.original, keys.poster, keys.preview, at),
  );
  return keys;
}

describe("media and the public profile", () => {
  it("a locked post shows only its blurred preview; blocks, unpublished posts and suspended authors show nothing", async () => {
    const creator = await createUser();
    const member = await createUser();
    const blocked = await createUser();
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
      .bind(creator.user.userId, blocked.user.userId, new Date().toISOString())
      .run();
    const locked = await createVideoPost(creator.user.userId, "subscribers");
    for (const token of [undefined, member.token]) {
      expect((await fetchMedia(locked.original, token)).status).toBe(404);
      expect((await fetchMedia(locked.poster, token)).status).toBe(404);
      expect((await fetchMedia(locked.preview, token)).status).toBe(200);
    }
    for (const key of Object.values(locked)) {
      expect((await fetchMedia(key, blocked.token)).status).toBe(404);
      expect((await fetchMedia(key, creator.token)).status).toBe(200);
    }

    const processing = await createVideoPost(creator.user.userId, "everyone", "processing");
    expect((await fetchMedia(processing.original, member.token)).status).toBe(404);
    expect((await fetchMedia(processing.original, creator.token)).status).toBe(200);

    const open = await createVideoPost(creator.user.userId, "everyone");
    expect((await fetchMedia(open.original)).status).toBe(200);
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), creator.user.userId)
      .run();
    expect((await fetchMedia(open.original)).status).toBe(404);
    expect((await fetchMedia(open.preview)).status).toBe(404);
  });

  it("serves Everyone-post media to anyone, locked media only to its owner, and nothing unknown", async () => {
    const creator = await createUser();
    const member = await createUser();
    const open = await createPost(creator.user.userId, "everyone");
    const forFollowers = await createPost(creator.user.userId, "followers");
    const forSubscribers = await createPost(creator.user.userId, "subscribers");

    const visitorOpen = await fetchMedia(open.key);
    expect(visitorOpen.status).toBe(200);
    expect(visitorOpen.body).toEqual(PNG);
    expect(visitorOpen.headers.get("Cache-Control")).toBe("private, max-age=3600");
    for (const locked of [forFollowers, forSubscribers]) {
      expect((await fetchMedia(locked.key)).status).toBe(404);
      expect((await fetchMedia(locked.key, member.token)).status).toBe(404);
      expect((await fetchMedia(locked.key, creator.token)).status).toBe(200);
    }
    expect((await fetchMedia("posts/00000000000000000000000000000000.png")).status).toBe(404);
    expect((await fetchMedia("../secrets.txt")).status).toBe(404);
    expect((await fetchMedia("avatars/private-looking.png")).status).toBe(404);
  });

  it("a locked post in the profile carries its text and media count, never a URL or key", async () => {
    const creator = await createUser();
    const open = await createPost(creator.user.userId, "everyone");
    const locked = await createPost(creator.user.userId, "subscribers");

    const asVisitor = await getProfile(env.DB, creator.user.username, null);
    const lockedPost = asVisitor!.posts.find((p) => p.id === locked.postId)!;
    expect(lockedPost).toMatchObject({ text: "a subscribers post", mediaCount: 1, media: null });
    expect(JSON.stringify(asVisitor)).not.toContain(locked.key);
    expect(JSON.stringify(asVisitor)).toContain(open.key);

    const asOwner = await getProfile(env.DB, creator.user.username, creator.user.userId);
    expect(JSON.stringify(asOwner)).toContain(locked.key);
    expect(await getProfile(env.DB, "no_such_person", null)).toBeNull();
  });
});
