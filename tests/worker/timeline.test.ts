import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { encodeCursor } from "../../worker/domain/shared/cursor";
import { timelineStatement } from "../../worker/domain/timeline/get-timeline";
import { api, createUser } from "./factories";
import { block, createPost, follow, makeCreator, subscribe } from "./timeline-fixtures";

interface Page {
  posts: { id: number; lock: string | null; media: unknown }[];
  nextCursor: string | null;
}

const timeline = async (token: string, query = "") => {
  const response = await api(`/timeline${query}`, { token });
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
};

describe("GET /api/timeline", () => {
  it("needs a session", async () => {
    expect((await api("/timeline")).status).toBe(401);
  });

  it("shows own posts and followed creators' posts the viewer may see, newest first, paid ones locked", async () => {
    const fan = await createUser();
    const followed = await makeCreator();
    const subscribedTo = await makeCreator();
    const stranger = await makeCreator();
    await follow(fan.user.userId, followed.user.userId);
    await subscribe(fan.user.userId, subscribedTo.user.userId);

    const own = await createPost(fan.user.userId, { audience: "subscribers" });
    const everyone = await createPost(followed.user.userId);
    const forFollowers = await createPost(followed.user.userId, { audience: "followers" });
    await createPost(followed.user.userId, { audience: "subscribers" });
    const paid = await createPost(followed.user.userId, { priceCents: 500 });
    const forSubscribers = await createPost(subscribedTo.user.userId, { audience: "subscribers" });
    await createPost(stranger.user.userId);
    await createPost(followed.user.userId, { status: "scheduled" });

    const { posts, nextCursor } = await timeline(fan.token);
    expect(posts.map((p) => p.id)).toEqual([forSubscribers.id, paid.id, forFollowers.id, everyone.id, own.id]);
    expect(nextCursor).toBeNull();
    expect(posts.find((p) => p.id === paid.id)).toMatchObject({ lock: "purchase", media: null });
    expect(JSON.stringify(posts)).not.toContain(paid.key);
    expect(JSON.stringify(posts)).toContain(forSubscribers.key);
  });

  it("leaves out blocked and suspended authors", async () => {
    const fan = await createUser();
    const blocker = await makeCreator();
    const blocked = await makeCreator();
    const suspended = await makeCreator();
    for (const creator of [blocker, blocked, suspended]) {
      await follow(fan.user.userId, creator.user.userId);
      await createPost(creator.user.userId);
    }
    await block(blocker.user.userId, fan.user.userId);
    await block(fan.user.userId, blocked.user.userId);
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?").bind(new Date().toISOString(), suspended.user.userId).run();
    expect((await timeline(fan.token)).posts).toEqual([]);
  });

  it("pages with a cursor, 20 at a time, without repeats, and answers the newer posts", async () => {
    const fan = await createUser();
    const creator = await makeCreator();
    await follow(fan.user.userId, creator.user.userId);
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) ids.push((await createPost(creator.user.userId)).id);
    const newestFirst = [...ids].reverse();

    const first = await timeline(fan.token);
    expect(first.posts.map((p) => p.id)).toEqual(newestFirst.slice(0, 20));
    expect(first.nextCursor).not.toBeNull();
    const second = await timeline(fan.token, `?cursor=${first.nextCursor}`);
    expect(second.posts.map((p) => p.id)).toEqual(newestFirst.slice(20));
    expect(second.nextCursor).toBeNull();

    const newest = (await env.DB.prepare("SELECT published_at FROM posts WHERE id = ?").bind(ids.at(-1)).first<{ published_at: string }>())!;
    const later = [await createPost(creator.user.userId), await createPost(creator.user.userId)];
    const pending = await api(`/timeline/new?after=${encodeCursor(newest.published_at, ids.at(-1)!)}`, { token: fan.token });
    expect(pending.status).toBe(200);
    expect(((await pending.json()) as Page).posts.map((p) => p.id)).toEqual([later[1]!.id, later[0]!.id]);
  });

  it("refuses a malformed cursor with 422", async () => {
    const fan = await createUser();
    for (const bad of ["?cursor=not-a-cursor", `?cursor=${btoa("2026-01-01~0")}`, `?cursor=${"x".repeat(300)}`]) {
      const response = await api(`/timeline${bad}`, { token: fan.token });
      expect(response.status).toBe(422);
    }
    expect((await api("/timeline/new?after=%%%", { token: fan.token })).status).toBe(422);
  });

  it("answers one post at GET /api/posts/{id}, 404 when unknown or hidden", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const post = await createPost(creator.user.userId);
    const visible = await api(`/posts/${post.id}`, { token: fan.token });
    expect(visible.status).toBe(200);
    expect(((await visible.json()) as { id: number }).id).toBe(post.id);
    await block(creator.user.userId, fan.user.userId);
    expect((await api(`/posts/${post.id}`, { token: fan.token })).status).toBe(404);
    expect((await api("/posts/999999")).status).toBe(404);
    expect((await api("/posts/abc")).status).toBe(422);
  });

  it("reads posts through the posts_feed index, never a scan of posts or follows (EXPLAIN QUERY PLAN)", async () => {
    const fan = await createUser();
    for (const cursor of [null, { at: "2026-05-01T00:00:00.000Z", id: 5 }]) {
      const { results } = await timelineStatement(env.DB, fan.user.userId, cursor, true).all<{ detail: string }>();
      const plan = results.map((row) => row.detail);
      expect(plan.some((line) => /SEARCH p USING INDEX posts_feed/.test(line)), plan.join("\n")).toBe(true);
      expect(plan.filter((line) => /^SCAN (p|posts|follows|users|u|c)\b/.test(line))).toEqual([]);
      expect(plan.filter((line) => /subscriptions_due/.test(line))).toEqual([]);
    }
  });
});
