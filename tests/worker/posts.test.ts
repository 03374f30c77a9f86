import { env } from "cloudflare:test";
import { testContext } from "./domain-context";
import { describe, expect, it } from "vitest";
import { completeProcessingPost } from "../../worker/domain/posts/complete-processing";
import type { PostView } from "@shared/contracts/posts";
import { publishDueScheduledPosts } from "../../worker/domain/posts/publish-scheduled";
import type { Env } from "../../worker/env";
import { runScheduledJobsAndSettle } from "./entry";
import { api, createUser, postJson } from "./factories";

type User = Awaited<ReturnType<typeof createUser>>;

async function createCreator(): Promise<User> {
  const user = await createUser();
  await env.DB.prepare("UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE id = ?")
    .bind(user.user.userId)
    .run();
  return user;
}

/** An upload row as the media commands leave it (the bytes are not needed here). */
async function insertMedia(userId: number, overrides: { status?: string; purpose?: string } = {}) {
  const key = `posts/${crypto.randomUUID().replace(/-/g, "")}.jpg`;
  const row = await env.DB.prepare(
    `INSERT INTO media (user_id, purpose, kind, status, object_key, preview_key, content_type, size_bytes, created_at)
     VALUES (?, ?, 'image', ?, ?, ?, 'image/jpeg', 100, ?) RETURNING id`,
  )
    .bind(
      userId,
      overrides.purpose ?? "post",
      overrides.status ?? "ready",
      key,
      key.replace("posts/", "previews/"),
      new Date().toISOString(),
    )
    .first<{ id: number }>();
  return { id: row!.id, key };
}

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

async function createPost(token: string, body: Record<string, unknown>) {
  const response = await postJson("/posts", body, { token });
  return {
    status: response.status,
    body: (await response.json()) as PostView & { message: string; errors: Record<string, string[]> },
  };
}

const patchJson = (path: string, body: unknown, token: string) =>
  api(path, { method: "PATCH", body: JSON.stringify(body), token });

async function postRow(id: number) {
  return env.DB.prepare(
    "SELECT status, published_at, scheduled_at, edited_at, text, audience, price_cents FROM posts WHERE id = ?",
  )
    .bind(id)
    .first<{
      status: string;
      published_at: string | null;
      scheduled_at: string | null;
      edited_at: string | null;
      text: string;
      audience: string;
      price_cents: number;
    }>();
}

async function counts() {
  const row = await env.DB.prepare(
    "SELECT (SELECT COUNT(*) FROM posts) AS posts, (SELECT COUNT(*) FROM post_media) AS attached",
  ).first<{ posts: number; attached: number }>();
  return row!;
}

describe("POST /api/posts", () => {
  it("publishes a text post now and answers the presented post", async () => {
    const creator = await createCreator();
    const { status, body } = await createPost(creator.token, { text: "Hello fans", audience: "everyone" });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      text: "Hello fans",
      audience: "everyone",
      priceCents: 0,
      status: "published",
      isOwn: true,
      lock: null,
    });
    expect(body.publishedAt).not.toBeNull();
  });

  it("without an audience answers the spec's message on the audience field", async () => {
    const creator = await createCreator();
    const { status, body } = await createPost(creator.token, { text: "Who sees me?" });
    expect(status).toBe(422);
    expect(body.errors.audience).toEqual(["Who can see field is required!"]);
    expect(body.message).toBe("Who can see field is required!");
  });

  it("refuses every bad input with a 4xx and writes nothing", async () => {
    const creator = await createCreator();
    const other = await createCreator();
    const foreign = await insertMedia(other.user.userId);
    const avatar = await insertMedia(creator.user.userId, { purpose: "avatar" });
    const failed = await insertMedia(creator.user.userId, { status: "failed" });
    const valid = { text: "ok", audience: "everyone" };
    const cases: [string, unknown][] = [
      ["an unknown audience", { ...valid, audience: "friends" }],
      ["text over 5000 characters", { ...valid, text: "x".repeat(5001) }],
      ["text that is not a string", { ...valid, text: 5 }],
      ["no text and no media", { audience: "everyone" }],
      ["blank text and no media", { text: "   ", audience: "everyone" }],
      ["a price under $1", { ...valid, priceCents: 99 }],
      ["a price over $200", { ...valid, priceCents: 20001 }],
      ["a fractional price", { ...valid, priceCents: 150.5 }],
      ["a negative price", { ...valid, priceCents: -100 }],
      ["a price as a string", { ...valid, priceCents: "500" }],
      ["a time in the past", { ...valid, scheduledAt: inMinutes(-1) }],
      ["a time over a year ahead", { ...valid, scheduledAt: inMinutes(366 * 24 * 60) }],
      ["a time that is not an instant", { ...valid, scheduledAt: "tomorrow" }],
      ["a local time without zone", { ...valid, scheduledAt: "2030-01-01T10:00" }],
      ["21 media", { ...valid, mediaIds: Array.from({ length: 21 }, (_, i) => i + 1) }],
      ["the same medium twice", { ...valid, mediaIds: [avatar.id, avatar.id] }],
      ["media ids that are not numbers", { ...valid, mediaIds: ["a"] }],
      ["someone else's medium", { ...valid, mediaIds: [foreign.id] }],
      ["an avatar", { ...valid, mediaIds: [avatar.id] }],
      ["a failed upload", { ...valid, mediaIds: [failed.id] }],
      ["an unknown medium", { ...valid, mediaIds: [999_999] }],
      ["malformed JSON", "{"],
      ["an array", "[]"],
    ];
    const before = await counts();
    for (const [name, body] of cases) {
      const response = await postJson("/posts", body, { token: creator.token });
      expect(response.status, name).toBe(422);
      const payload = (await response.json()) as { message: unknown; errors: unknown };
      expect(typeof payload.message, name).toBe("string");
    }
    expect(await counts()).toEqual(before);
  });

  it("is for creators only, and for signed-in people only", async () => {
    const member = await createUser();
    const before = await counts();
    const asMember = await createPost(member.token, { text: "me too", audience: "everyone" });
    expect(asMember.status).toBe(403);
    expect(asMember.body.message).toBe("Only creators can post.");
    expect((await postJson("/posts", { text: "anyone?", audience: "everyone" })).status).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it("with every file uploaded, publishes at once with the media in the order given", async () => {
    const creator = await createCreator();
    const first = await insertMedia(creator.user.userId);
    const second = await insertMedia(creator.user.userId);
    const { status, body } = await createPost(creator.token, {
      audience: "subscribers",
      priceCents: 500,
      mediaIds: [second.id, first.id],
    });
    expect(status).toBe(201);
    expect(body.status).toBe("published");
    expect(body.media!.map((m) => m.id)).toEqual([second.id, first.id]);
    // A vault file may be in several posts: the second post uses the same row, nothing is copied.
    const again = await createPost(creator.token, { text: "again", audience: "everyone", mediaIds: [first.id] });
    expect(again.status).toBe(201);
    expect(again.body.media!.map((m) => m.id)).toEqual([first.id]);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE user_id = ?").bind(creator.user.userId).first("n"),
    ).toBe(2);
  });

  it("with uploads still running, holds the post in processing until the last one completes", async () => {
    const creator = await createCreator();
    const done = await insertMedia(creator.user.userId);
    const running = await insertMedia(creator.user.userId, { status: "uploading" });
    const { status, body } = await createPost(creator.token, {
      text: "coming",
      audience: "everyone",
      mediaIds: [done.id, running.id],
    });
    expect(status).toBe(201);
    expect(body.status).toBe("processing");
    expect(body.publishedAt).toBeNull();

    const listed = (await (await api("/posts/processing", { token: creator.token })).json()) as {
      posts: (PostView & { uploads: { id: number; status: string }[] })[];
    };
    expect(listed.posts.map((p) => p.id)).toEqual([body.id]);
    expect(listed.posts[0]!.uploads).toEqual([
      { id: done.id, kind: "image", status: "ready" },
      { id: running.id, kind: "image", status: "uploading" },
    ]);
    // Not published yet: completing does nothing while a file is still uploading.
    expect(await completeProcessingPost(testContext(), body.id)).toBeNull();

    await env.DB.prepare("UPDATE media SET status = 'ready' WHERE id = ?").bind(running.id).run();
    expect(await completeProcessingPost(testContext(), body.id)).toBe("published");
    expect(await completeProcessingPost(testContext(), body.id)).toBeNull();
    expect((await postRow(body.id))!.status).toBe("published");
    const after = (await (await api("/posts/processing", { token: creator.token })).json()) as { posts: unknown[] };
    expect(after.posts).toEqual([]);
  });

  it("a processing post with a time still ahead becomes scheduled when its uploads complete", async () => {
    const creator = await createCreator();
    const running = await insertMedia(creator.user.userId, { status: "uploading" });
    const { body } = await createPost(creator.token, {
      audience: "followers",
      mediaIds: [running.id],
      scheduledAt: inMinutes(30),
    });
    expect(body.status).toBe("processing");
    await env.DB.prepare("UPDATE media SET status = 'ready' WHERE id = ?").bind(running.id).run();
    expect(await completeProcessingPost(testContext(), body.id)).toBe("scheduled");
    expect((await postRow(body.id))!.published_at).toBeNull();
  });
});

describe("scheduled posts", () => {
  it("are listed for their author only, soonest first, with a cursor", async () => {
    const creator = await createCreator();
    const later = await createPost(creator.token, { text: "later", audience: "everyone", scheduledAt: inMinutes(120) });
    const sooner = await createPost(creator.token, {
      text: "sooner",
      audience: "everyone",
      scheduledAt: inMinutes(60),
    });
    expect(sooner.body).toMatchObject({ status: "scheduled", publishedAt: null });

    const page = (await (await api("/posts/scheduled", { token: creator.token })).json()) as {
      posts: PostView[];
      nextCursor: string | null;
    };
    expect(page.posts.map((p) => p.text)).toEqual(["sooner", "later"]);
    expect(page.nextCursor).toBeNull();
    const other = await createCreator();
    const theirs = (await (await api("/posts/scheduled", { token: other.token })).json()) as { posts: PostView[] };
    expect(theirs.posts).toEqual([]);
    expect((await api("/posts/scheduled?cursor=nonsense", { token: creator.token })).status).toBe(422);
    // A scheduled post is nobody else's to see yet.
    expect(JSON.stringify(theirs)).not.toContain(later.body.text);
  });

  it("pages through more than 20", async () => {
    const creator = await createCreator();
    const at = Date.now() + 3_600_000;
    const statements = Array.from({ length: 23 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO posts (user_id, text, audience, status, scheduled_at, created_at) VALUES (?, ?, 'everyone', 'scheduled', ?, ?)",
      ).bind(creator.user.userId, `post ${i}`, new Date(at + (i % 5) * 60_000).toISOString(), new Date().toISOString()),
    );
    await env.DB.batch(statements);
    const first = (await (await api("/posts/scheduled", { token: creator.token })).json()) as {
      posts: PostView[];
      nextCursor: string;
    };
    const second = (await (
      await api(`/posts/scheduled?cursor=${first.nextCursor}`, { token: creator.token })
    ).json()) as { posts: PostView[]; nextCursor: string | null };
    expect(first.posts).toHaveLength(20);
    expect(second.posts).toHaveLength(3);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.posts, ...second.posts].map((p) => p.id)).size).toBe(23);
  });

  it("the cron job publishes each due post exactly once, even when two runs overlap", async () => {
    const creator = await createCreator();
    const other = await createCreator();
    const due = [
      await createPost(creator.token, { text: "due one", audience: "everyone", scheduledAt: inMinutes(5) }),
      await createPost(creator.token, { text: "due two", audience: "followers", scheduledAt: inMinutes(6) }),
      await createPost(other.token, { text: "due three", audience: "everyone", scheduledAt: inMinutes(7) }),
    ].map((p) => p.body.id);
    const notYet = (
      await createPost(creator.token, { text: "not yet", audience: "everyone", scheduledAt: inMinutes(60) })
    ).body.id;
    await env.DB.prepare("UPDATE posts SET scheduled_at = ? WHERE id IN (SELECT value FROM json_each(?))")
      .bind(inMinutes(-1), JSON.stringify(due))
      .run();

    const ctx = testContext();
    const runs = await Promise.all([publishDueScheduledPosts(ctx), publishDueScheduledPosts(ctx)]);
    const announced = ctx.published.map((event) => (event.type === "PostPublished" ? event.authorId : null));

    const published = runs.flat().map((p) => p.id);
    expect(published.sort()).toEqual([...due].sort());
    expect(announced.sort()).toEqual([creator.user.userId, other.user.userId].sort());
    const rows = await Promise.all(due.map(postRow));
    for (const row of rows) expect(row).toMatchObject({ status: "published" });
    const publishedAt = rows.map((r) => r!.published_at);

    // A third run (the real cron handler) finds nothing left to do and changes no publication time.
    await runScheduledJobsAndSettle(env as Env);
    expect((await Promise.all(due.map(postRow))).map((r) => r!.published_at)).toEqual(publishedAt);
    expect((await postRow(notYet))!.status).toBe("scheduled");
  });

  it("a follower's Home dot lights when a post is published, not while it is scheduled", async () => {
    const creator = await createCreator();
    const fan = await createUser();
    await env.DB.prepare("INSERT INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?)")
      .bind(fan.user.userId, creator.user.userId, new Date().toISOString())
      .run();
    const homeDot = async () =>
      ((await (await api("/updates", { token: fan.token })).json()) as { updates: { home: boolean } }).updates.home;
    await postJson("/home/seen", {}, { token: fan.token });
    const scheduled = (
      await createPost(creator.token, { text: "later", audience: "everyone", scheduledAt: inMinutes(30) })
    ).body;
    expect(await homeDot()).toBe(false);
    // Due long ago: its publication time is when the cron publishes it, so it is news since the fan last looked.
    await env.DB.prepare("UPDATE posts SET scheduled_at = ? WHERE id = ?")
      .bind("2020-01-01T00:00:00.000Z", scheduled.id)
      .run();
    await runScheduledJobsAndSettle(env as Env);
    expect(await homeDot()).toBe(true);
  });

  it("publish now: the author's scheduled post only", async () => {
    const creator = await createCreator();
    const other = await createCreator();
    const scheduled = (
      await createPost(creator.token, { text: "soon", audience: "everyone", scheduledAt: inMinutes(60) })
    ).body;
    expect((await postJson(`/posts/${scheduled.id}/publish`, {}, { token: other.token })).status).toBe(404);
    const response = await postJson(`/posts/${scheduled.id}/publish`, {}, { token: creator.token });
    expect(response.status).toBe(200);
    expect(((await response.json()) as PostView).status).toBe("published");
    const again = await postJson(`/posts/${scheduled.id}/publish`, {}, { token: creator.token });
    expect(again.status).toBe(422);
    expect(((await again.json()) as { message: string }).message).toBe("Only a scheduled post can be published now.");
  });
});

describe("editing and deleting own posts", () => {
  it("edits text, audience and price of a published post and marks it edited", async () => {
    const creator = await createCreator();
    const post = (await createPost(creator.token, { text: "first", audience: "everyone" })).body;
    expect(post.editedAt).toBeNull();
    const response = await patchJson(
      `/posts/${post.id}`,
      { text: "second", audience: "subscribers", priceCents: 300 },
      creator.token,
    );
    expect(response.status).toBe(200);
    const edited = (await response.json()) as PostView;
    expect(edited).toMatchObject({ text: "second", audience: "subscribers", priceCents: 300 });
    expect(edited.editedAt).not.toBeNull();
    expect((await postRow(post.id))!.edited_at).toBe(edited.editedAt);
    // The time of a published post is history.
    const reschedule = await patchJson(`/posts/${post.id}`, { scheduledAt: inMinutes(60) }, creator.token);
    expect(reschedule.status).toBe(422);
  });

  it("reschedules a scheduled post without marking it edited", async () => {
    const creator = await createCreator();
    const post = (await createPost(creator.token, { text: "plan", audience: "everyone", scheduledAt: inMinutes(60) }))
      .body;
    const newTime = inMinutes(90);
    const edited = (await (
      await patchJson(`/posts/${post.id}`, { scheduledAt: newTime, text: "new plan" }, creator.token)
    ).json()) as PostView;
    expect(edited).toMatchObject({ scheduledAt: newTime, text: "new plan", editedAt: null, status: "scheduled" });
  });

  it("refuses bad edits and other people's posts, changing nothing", async () => {
    const creator = await createCreator();
    const other = await createCreator();
    const post = (await createPost(creator.token, { text: "mine", audience: "everyone" })).body;
    const before = await postRow(post.id);
    const bad: [unknown, number][] = [
      [{ text: "" }, 422],
      [{ text: "x".repeat(5001) }, 422],
      [{ audience: "" }, 422],
      [{ priceCents: 1 }, 422],
      [{ scheduledAt: inMinutes(-5) }, 422],
    ];
    for (const [body, status] of bad)
      expect((await patchJson(`/posts/${post.id}`, body, creator.token)).status, JSON.stringify(body)).toBe(status);
    expect((await patchJson(`/posts/${post.id}`, { text: "theirs now" }, other.token)).status).toBe(404);
    expect((await patchJson("/posts/abc", { text: "x" }, creator.token)).status).toBe(422);
    expect((await api(`/posts/${post.id}`, { method: "PATCH", body: JSON.stringify({ text: "x" }) })).status).toBe(401);
    expect(await postRow(post.id)).toEqual(before);
  });

  it("deletes the post and keeps its files in the vault; others get 404", async () => {
    const creator = await createCreator();
    const other = await createCreator();
    const medium = await insertMedia(creator.user.userId);
    await env.MEDIA.put(medium.key, new Uint8Array([1, 2, 3]));
    const post = (await createPost(creator.token, { text: "bye", audience: "everyone", mediaIds: [medium.id] })).body;

    expect((await api(`/posts/${post.id}`, { method: "DELETE", token: other.token })).status).toBe(404);
    expect(await postRow(post.id)).not.toBeNull();

    const response = await api(`/posts/${post.id}`, { method: "DELETE", token: creator.token });
    expect(response.status).toBe(200);
    expect(await postRow(post.id)).toBeNull();
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM post_media WHERE post_id = ?").bind(post.id).first("n"),
    ).toBe(0);
    expect(await env.DB.prepare("SELECT status FROM media WHERE id = ?").bind(medium.id).first("status")).toBe("ready");
    expect(await env.MEDIA.head(medium.key)).not.toBeNull();
    expect((await api(`/posts/${post.id}`, { method: "DELETE", token: creator.token })).status).toBe(404);
  });
});
