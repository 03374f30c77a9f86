import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { stopClockAt } from "./clock";
import { api, countRows, createUser, postJson } from "./factories";
import { block, createPost, follow, makeCreator } from "./timeline-fixtures";
import { counted } from "./counted-db";
import { testContext } from "./domain-context";
import { likePost, unlikePost } from "../../worker/domain/interactions/like-post";
import { addComment } from "../../worker/domain/interactions/add-comment";

const notificationsOf = (userId: number) =>
  env.DB.prepare("SELECT kind, actor_id, params FROM notifications WHERE user_id = ? ORDER BY id")
    .bind(userId)
    .all<{ kind: string; actor_id: number; params: string }>();

describe("likes", () => {
  it("likes once, counts, notifies the author, and unlikes", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const post = await createPost(creator.user.userId);

    for (let i = 0; i < 2; i++) {
      const liked = await postJson(`/posts/${post.id}/like`, {}, { token: fan.token });
      expect(liked.status).toBe(200);
      expect(await liked.json()).toEqual({ liked: true, likeCount: 1 });
    }
    const { results } = await notificationsOf(creator.user.userId);
    expect(results).toEqual([{ kind: "like", actor_id: fan.user.userId, params: JSON.stringify({ postId: post.id }) }]);

    const page = (await (await api("/timeline", { token: fan.token })).json()) as { posts: unknown[] };
    expect(page.posts).toEqual([]);
    const seen = (await (await api(`/posts/${post.id}`, { token: fan.token })).json()) as {
      liked: boolean;
      likeCount: number;
    };
    expect(seen).toMatchObject({ liked: true, likeCount: 1 });

    const unliked = await api(`/posts/${post.id}/like`, { method: "DELETE", token: fan.token });
    expect(await unliked.json()).toEqual({ liked: false, likeCount: 0 });
  });

  it("is one batch after the access check: the like, the author's notification (a new like only) and the count", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const post = await createPost(creator.user.userId);
    const { database, calls } = counted(env.DB);
    const ctx = { ...testContext(), db: database };
    const first = await likePost(ctx, fan.user.userId, post.id);
    expect(first).toEqual({ liked: true, likeCount: 1 });
    expect(calls).toMatchObject({ single: 1, batches: 1 });
    expect(ctx.published).toEqual([
      expect.objectContaining({ type: "NotificationCreated", userId: creator.user.userId, kind: "like" }),
    ]);
    // Liked again: nothing new to tell, and the count is the same.
    expect(await likePost(ctx, fan.user.userId, post.id)).toEqual({ liked: true, likeCount: 1 });
    expect(ctx.published).toHaveLength(1);
    expect((await notificationsOf(creator.user.userId)).results).toHaveLength(1);
    calls.single = 0;
    calls.batches = 0;
    expect(await unlikePost(database, fan.user.userId, post.id)).toEqual({ liked: false, likeCount: 0 });
    expect(calls).toMatchObject({ single: 1, batches: 1 });
    // Liked anew after taking it back: a new like, told again.
    expect(await likePost(ctx, fan.user.userId, post.id)).toEqual({ liked: true, likeCount: 1 });
    expect(ctx.published).toHaveLength(2);
    expect((await notificationsOf(creator.user.userId)).results).toHaveLength(2);
  });

  it("notifies nobody of a like on one's own post", async () => {
    const creator = await makeCreator();
    const post = await createPost(creator.user.userId);
    expect((await postJson(`/posts/${post.id}/like`, {}, { token: creator.token })).status).toBe(200);
    expect((await notificationsOf(creator.user.userId)).results).toEqual([]);
  });

  it("refuses a locked post (403), a hidden or unknown one (404), and writes nothing", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const locked = await createPost(creator.user.userId, { audience: "followers" });
    const open = await createPost(creator.user.userId);
    expect((await postJson(`/posts/${locked.id}/like`, {}, { token: fan.token })).status).toBe(403);
    expect((await postJson(`/posts/${locked.id}/comments`, { text: "hi" }, { token: fan.token })).status).toBe(403);
    await block(creator.user.userId, fan.user.userId);
    expect((await postJson(`/posts/${open.id}/like`, {}, { token: fan.token })).status).toBe(404);
    expect((await postJson(`/posts/${open.id}/bookmark`, {}, { token: fan.token })).status).toBe(404);
    expect((await postJson(`/posts/${open.id}/comments`, { text: "hi" }, { token: fan.token })).status).toBe(404);
    expect((await postJson("/posts/987654/like", {}, { token: fan.token })).status).toBe(404);
    expect((await postJson(`/posts/${open.id}/like`, {})).status).toBe(401);
    for (const id of ["0", "abc", "-1", "1e3", "9".repeat(17)]) {
      expect((await postJson(`/posts/${id}/like`, {}, { token: fan.token })).status, id).toBe(422);
      expect((await api(`/posts/${id}/bookmark`, { method: "DELETE", token: fan.token })).status, id).toBe(422);
      expect((await api(`/comments/${id}`, { method: "DELETE", token: fan.token })).status, id).toBe(422);
    }
    expect((await postJson("/posts/9007199254740991/like", {}, { token: fan.token })).status).toBe(404);
    expect(await countRows("likes")).toBe(0);
    expect(await countRows("comments")).toBe(0);
    expect(await countRows("bookmarks")).toBe(0);
    expect(await countRows("notifications")).toBe(0);
  });
});

describe("bookmarks", () => {
  it("bookmarks a post (even a locked one), lists newest saved first, and removes it", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const first = await createPost(creator.user.userId);
    const locked = await createPost(creator.user.userId, { audience: "subscribers" });
    // Saved in the other order than posted, a millisecond apart: the list follows when each was saved.
    const start = new Date();
    stopClockAt(start);
    const saved = await postJson(`/posts/${locked.id}/bookmark`, {}, { token: fan.token });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ bookmarked: true });
    stopClockAt(new Date(start.getTime() + 1));
    expect((await postJson(`/posts/${first.id}/bookmark`, {}, { token: fan.token })).status).toBe(200);

    const list = (await (await api("/bookmarks", { token: fan.token })).json()) as {
      posts: { id: number; bookmarked: boolean; lock: string | null }[];
    };
    expect(list.posts.map((p) => [p.id, p.bookmarked, p.lock])).toEqual([
      [first.id, true, null],
      [locked.id, true, "subscribe"],
    ]);
    expect(JSON.stringify(list)).not.toContain(locked.key);

    await api(`/posts/${first.id}/bookmark`, { method: "DELETE", token: fan.token });
    const after = (await (await api("/bookmarks", { token: fan.token })).json()) as { posts: { id: number }[] };
    expect(after.posts.map((p) => p.id)).toEqual([locked.id]);
    expect((await api("/bookmarks?cursor=zzz", { token: fan.token })).status).toBe(422);
  });

  it("pages bookmarks with a cursor", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const ids: number[] = [];
    for (let i = 0; i < 22; i++) {
      const post = await createPost(creator.user.userId);
      await env.DB.prepare("INSERT INTO bookmarks (user_id, post_id, created_at) VALUES (?, ?, ?)")
        .bind(fan.user.userId, post.id, new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString())
        .run();
      ids.unshift(post.id);
    }
    const first = (await (await api("/bookmarks", { token: fan.token })).json()) as {
      posts: { id: number }[];
      nextCursor: string;
    };
    const second = (await (await api(`/bookmarks?cursor=${first.nextCursor}`, { token: fan.token })).json()) as {
      posts: { id: number }[];
      nextCursor: null;
    };
    expect([...first.posts, ...second.posts].map((p) => p.id)).toEqual(ids);
    expect(second.nextCursor).toBeNull();
  });
});

describe("comments", () => {
  it("adds, lists, notifies the author; the commenter and the post's author may delete, nobody else", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const other = await createUser();
    const post = await createPost(creator.user.userId);

    const added = await postJson(`/posts/${post.id}/comments`, { text: "  Lovely!  " }, { token: fan.token });
    expect(added.status).toBe(201);
    const { comment } = (await added.json()) as { comment: { id: number; text: string; canDelete: boolean } };
    expect(comment).toMatchObject({ text: "Lovely!", canDelete: true });
    const second = (
      (await (await postJson(`/posts/${post.id}/comments`, { text: "Mine" }, { token: other.token })).json()) as {
        comment: { id: number };
      }
    ).comment;

    const { results } = await notificationsOf(creator.user.userId);
    expect(results.map((n) => [n.kind, n.actor_id, JSON.parse(n.params)])).toEqual([
      ["comment", fan.user.userId, { postId: post.id, commentId: comment.id }],
      ["comment", other.user.userId, { postId: post.id, commentId: second.id }],
    ]);

    const listed = (await (await api(`/posts/${post.id}/comments`)).json()) as {
      comments: { id: number; canDelete: boolean }[];
    };
    expect(listed.comments.map((c) => [c.id, c.canDelete])).toEqual([
      [comment.id, false],
      [second.id, false],
    ]);
    const counted = (await (await api(`/posts/${post.id}`)).json()) as { commentCount: number };
    expect(counted.commentCount).toBe(2);

    expect((await api(`/comments/${comment.id}`, { method: "DELETE", token: other.token })).status).toBe(404);
    expect((await api(`/comments/${comment.id}`, { method: "DELETE", token: fan.token })).status).toBe(200);
    expect((await api(`/comments/${second.id}`, { method: "DELETE", token: creator.token })).status).toBe(200);
    expect(await countRows("comments")).toBe(0);
  });

  it("is one batch after the access check: the comment, as shown, and the author's notification; sent again, nothing new", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const post = await createPost(creator.user.userId);
    const { database, calls } = counted(env.DB);
    const ctx = { ...testContext(), db: database };
    const clientId = `c-${crypto.randomUUID()}`;
    const first = await addComment(ctx, fan.user.userId, post.id, "Lovely", clientId);
    expect(calls).toMatchObject({ single: 1, batches: 1 });
    expect(first).toMatchObject({
      replayed: false,
      comment: { text: "Lovely", postId: post.id, canDelete: true, author: { id: fan.user.userId } },
    });
    expect(ctx.published).toEqual([
      expect.objectContaining({ type: "NotificationCreated", userId: creator.user.userId, kind: "comment" }),
    ]);
    const again = await addComment(ctx, fan.user.userId, post.id, "Lovely", clientId);
    expect(again).toEqual({ ...first, replayed: true });
    expect(ctx.published).toHaveLength(1);
    // Without a client id each is a new comment, told each time; one's own comment tells nobody.
    await addComment(ctx, fan.user.userId, post.id, "Again");
    await addComment(ctx, creator.user.userId, post.id, "Thanks");
    expect(ctx.published).toHaveLength(2);
    expect(
      (await notificationsOf(creator.user.userId)).results.map((n) => JSON.parse(n.params).commentId),
    ).toHaveLength(2);
  });

  it("a comment sent again with its client id is stored once; the id cannot be reused on another post", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const post = await createPost(creator.user.userId);
    const other = await createPost(creator.user.userId);
    const clientId = "outbox-comment-0001";
    const answers = await Promise.all(
      [1, 2, 3].map(() => postJson(`/posts/${post.id}/comments`, { text: "Once", clientId }, { token: fan.token })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    const ids = await Promise.all(
      answers.map(async (r) => ((await r.json()) as { comment: { id: number } }).comment.id),
    );
    expect(new Set(ids).size).toBe(1);
    expect(await countRows("comments")).toBe(1);
    expect((await notificationsOf(creator.user.userId)).results.filter((n) => n.kind === "comment")).toHaveLength(1);
    expect(
      (await postJson(`/posts/${other.id}/comments`, { text: "Once", clientId }, { token: fan.token })).status,
    ).toBe(409);
    // Another person's same id is their own; without an id every comment is new.
    expect(
      (await postJson(`/posts/${post.id}/comments`, { text: "Mine", clientId }, { token: creator.token })).status,
    ).toBe(201);
    expect((await postJson(`/posts/${post.id}/comments`, { text: "Again" }, { token: fan.token })).status).toBe(201);
    expect((await postJson(`/posts/${post.id}/comments`, { text: "Again" }, { token: fan.token })).status).toBe(201);
    expect(
      (await postJson(`/posts/${post.id}/comments`, { text: "Bad id", clientId: "no" }, { token: fan.token })).status,
    ).toBe(422);
    expect(await countRows("comments")).toBe(4);
  });

  it("refuses empty, too long and malformed comments with 422, writing nothing", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const post = await createPost(creator.user.userId);
    for (const body of [{ text: "   " }, { text: "x".repeat(1001) }, {}, { text: 5 }, "not json"]) {
      const response = await postJson(`/posts/${post.id}/comments`, body, { token: fan.token });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { message: string }).message).toBeTruthy();
    }
    expect((await api(`/posts/${post.id}/comments?cursor=-1`)).status).toBe(422);
    expect(await countRows("comments")).toBe(0);
  });

  it("hides comments of a locked post from a visitor and a non-follower", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const post = await createPost(creator.user.userId, { audience: "followers" });
    expect((await api(`/posts/${post.id}/comments`)).status).toBe(403);
    expect((await api(`/posts/${post.id}/comments`, { token: fan.token })).status).toBe(403);
    await follow(fan.user.userId, creator.user.userId);
    expect((await api(`/posts/${post.id}/comments`, { token: fan.token })).status).toBe(200);
  });
});

describe("GET /api/search/posts", () => {
  it("finds visible posts by word prefix, never locked-out audiences or blocked authors, and resists FTS syntax", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const open = await createPost(creator.user.userId, { text: "Sunset over the harbour" });
    await createPost(creator.user.userId, { text: "Sunset for subscribers", audience: "subscribers" });
    const paid = await createPost(creator.user.userId, { text: "Sunset paid", priceCents: 300 });

    const search = async (q: string, token?: string) => {
      const response = await api(`/search/posts?q=${encodeURIComponent(q)}`, { token });
      expect(response.status).toBe(200);
      return ((await response.json()) as { posts: { id: number; lock: string | null }[] }).posts;
    };
    const found = await search("suns", fan.token);
    expect(found.map((p) => p.id).sort()).toEqual([open.id, paid.id].sort());
    expect(JSON.stringify(found)).not.toContain(paid.key);
    expect((await search('sunset" harb*(')).map((p) => p.id)).toEqual([open.id]);
    expect(await search("text:sunset NEAR(")).toEqual([]);
    expect(await search("***")).toEqual([]);
    expect((await api("/search/posts?q=")).status).toBe(422);
    await block(fan.user.userId, creator.user.userId);
    expect(await search("sunset", fan.token)).toEqual([]);
  });
});
