import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { encodeCursor } from "../../worker/domain/shared/cursor";
import { getTimeline, MANY_FOLLOWS, RECENT_WINDOW, timelineStatement } from "../../worker/domain/timeline/get-timeline";
import { api, createUser, followQuietCreators } from "./factories";
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
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), suspended.user.userId)
      .run();
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

    const newest = (await env.DB.prepare("SELECT published_at FROM posts WHERE id = ?")
      .bind(ids.at(-1))
      .first<{ published_at: string }>())!;
    const later = [await createPost(creator.user.userId), await createPost(creator.user.userId)];
    const pending = await api(`/timeline/new?after=${encodeCursor(newest.published_at, ids.at(-1)!)}`, {
      token: fan.token,
    });
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
      const { results } = await timelineStatement(
        env.DB,
        { id: fan.user.userId, following_count: 0 },
        cursor,
        true,
      ).all<{ detail: string }>();
      const plan = results.map((row) => row.detail);
      expect(
        plan.some((line) => /SEARCH p USING INDEX posts_feed/.test(line)),
        plan.join("\n"),
      ).toBe(true);
      expect(plan.filter((line) => /^SCAN (p|posts|follows|users|u|c)\b/.test(line))).toEqual([]);
      expect(plan.filter((line) => /subscriptions_due/.test(line))).toEqual([]);
      // Following many: the newest posts of everyone through posts_recent, a probe per post, no other scan.
      const { results: recent } = await timelineStatement(
        env.DB,
        { id: fan.user.userId, following_count: MANY_FOLLOWS },
        cursor,
        true,
      ).all<{ detail: string }>();
      const recentPlan = recent.map((row) => row.detail);
      expect(
        recentPlan.some((line) => /(SCAN|SEARCH) p USING INDEX posts_recent/.test(line)),
        recentPlan.join("\n"),
      ).toBe(true);
      expect(recentPlan.filter((line) => /^SCAN (posts|follows|users|u|c)\b/.test(line))).toEqual([]);
      // The walk stops once the page is full: the window is not materialized and sorted first. The one sort left
      // orders the page's own rows (POST_SELECT_SQL).
      expect(
        recentPlan.filter((line) => /MATERIALIZE (?!bound)|USE TEMP B-TREE/.test(line)),
        recentPlan.join("\n"),
      ).toEqual(["USE TEMP B-TREE FOR ORDER BY"]);
    }
  });

  it("a fan who follows many creators reads the same pages the other way round (posts_recent)", async () => {
    const fan = await createUser();
    const creators = [await makeCreator(), await makeCreator(), await makeCreator(), await makeCreator()];
    const [followed, subscribed, blocked, unfollowed] = creators.map((c) => c.user.userId) as [
      number,
      number,
      number,
      number,
    ];
    await follow(fan.user.userId, followed);
    await follow(fan.user.userId, blocked);
    await subscribe(fan.user.userId, subscribed);
    await block(blocked, fan.user.userId);
    // Enough other follows to pass MANY_FOLLOWS (quiet accounts: they post nothing).
    await followQuietCreators(fan.user.userId, MANY_FOLLOWS);
    for (let i = 0; i < 14; i++) {
      await createPost(followed, { audience: (["everyone", "followers", "subscribers"] as const)[i % 3] });
      await createPost(subscribed, { audience: i % 2 ? "subscribers" : "everyone" });
      await createPost(blocked);
      await createPost(unfollowed);
      if (i % 5 === 0) await createPost(fan.user.userId);
    }
    const viewer = await env.DB.prepare("SELECT id, following_count FROM users WHERE id = ?")
      .bind(fan.user.userId)
      .first<{ id: number; following_count: number }>();
    expect(viewer!.following_count).toBe(MANY_FOLLOWS + 3);
    type Row = { id: number; published_at: string };
    const ids = async (way: "authors" | "recent", cursor: { at: string; id: number } | null): Promise<Row[]> =>
      (
        await timelineStatement(env.DB, viewer!, cursor, false, new Date().toISOString(), way).all<{
          id: number;
          published_at: string;
        }>()
      ).results;
    // Page by page (21 rows: a page and the look-ahead), the two ways agree, the cursor included.
    let cursor: { at: string; id: number } | null = null;
    for (let page = 0; page < 3; page++) {
      const byAuthors: Row[] = await ids("authors", cursor);
      const byRecent: Row[] = await ids("recent", cursor);
      expect(byRecent.map((r) => r.id)).toEqual(byAuthors.map((r) => r.id));
      if (byAuthors.length < 21) break;
      const last: Row = byAuthors[19]!;
      cursor = { at: last.published_at, id: last.id };
    }
    // Through the API: no post of the blocked or unfollowed creator, and the same first page as the per-author way.
    const first = (await (await api("/timeline", { token: fan.token })).json()) as {
      posts: { id: number; author: { id: number } }[];
    };
    expect(first.posts.map((p) => p.id)).toEqual((await ids("authors", null)).slice(0, 20).map((r) => r.id));
    expect(first.posts.some((p) => p.author.id === blocked || p.author.id === unfollowed)).toBe(false);
  });

  it("following many, a window that holds less than a page is read again the per-author way", async () => {
    const fan = await createUser();
    const creator = await makeCreator();
    await follow(fan.user.userId, creator.user.userId);
    await env.DB.prepare("UPDATE users SET following_count = ? WHERE id = ?").bind(MANY_FOLLOWS, fan.user.userId).run();
    const old = await createPost(creator.user.userId);
    // RECENT_WINDOW newer posts of someone else push the followed creator's only post out of the window.
    const other = await makeCreator();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       INSERT INTO posts (user_id, text, audience, price_cents, status, published_at, created_at)
       SELECT ?1, 'noise', 'everyone', 0, 'published', '2099-01-01T00:00:00.000Z', '2026-01-01' FROM n`,
    )
      .bind(other.user.userId, RECENT_WINDOW)
      .run();
    const viewer = { id: fan.user.userId, following_count: MANY_FOLLOWS };
    expect(
      (await timelineStatement(env.DB, viewer, null, false, new Date().toISOString(), "recent").all()).results,
    ).toEqual([]);
    const page = await getTimeline(env.DB, viewer, null);
    expect(page.posts.map((p) => p.id)).toEqual([old.id]);
  });
});
