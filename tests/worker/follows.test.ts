import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createUser } from "./factories";
import { counted } from "./counted-db";
import { testContext } from "./domain-context";
import { followUser } from "../../worker/domain/follows/follow-user";

const follow = (username: string, token?: string) => api(`/users/${username}/follow`, { method: "POST", token });
const unfollow = (username: string, token?: string) => api(`/users/${username}/follow`, { method: "DELETE", token });

const followNotifications = async (userId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND kind = 'follow'")
    .bind(userId)
    .first<{ n: number }>())!.n;

const block = (blockerId: number, blockedId: number) =>
  env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
    .bind(blockerId, blockedId, new Date().toISOString())
    .run();

describe("follow and unfollow", () => {
  it("follows once, counts the follower, notifies once, and unfollows idempotently", async () => {
    const creator = await createUser();
    const fan = await createUser();

    const first = await follow(creator.user.username, fan.token);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ following: true, followerCount: 1 });
    const again = await follow(creator.user.username.toUpperCase(), fan.token);
    expect(await again.json()).toEqual({ following: true, followerCount: 1 });
    expect(await followNotifications(creator.user.userId)).toBe(1);
    const notification = await env.DB.prepare(
      "SELECT actor_id FROM notifications WHERE user_id = ? AND kind = 'follow'",
    )
      .bind(creator.user.userId)
      .first<{ actor_id: number }>();
    expect(notification!.actor_id).toBe(fan.user.userId);

    const gone = await unfollow(creator.user.username, fan.token);
    expect(await gone.json()).toEqual({ following: false, followerCount: 0 });
    expect(await (await unfollow(creator.user.username, fan.token)).json()).toEqual({
      following: false,
      followerCount: 0,
    });
    expect(
      await env.DB.prepare("SELECT follower_count FROM users WHERE id = ?")
        .bind(creator.user.userId)
        .first("follower_count"),
    ).toBe(0);
  });

  it("is one batch after the name's lookup: the follow, its notification when new, the count", async () => {
    const creator = await createUser();
    const fan = await createUser();
    const { database, calls } = counted(env.DB);
    const ctx = { ...testContext(), db: database };
    expect(await followUser(ctx, fan.user.userId, creator.user.username)).toEqual({
      following: true,
      followerCount: 1,
    });
    // The username's lookup (none once the isolate knows it) and the batch.
    expect(calls.single).toBeLessThanOrEqual(1);
    expect(calls.batches).toBe(1);
    expect(await followUser(ctx, fan.user.userId, creator.user.username)).toEqual({
      following: true,
      followerCount: 1,
    });
    expect(ctx.published.filter((event) => event.type === "NotificationCreated")).toEqual([
      expect.objectContaining({ userId: creator.user.userId, kind: "follow" }),
    ]);
    expect(await followNotifications(creator.user.userId)).toBe(1);
  });

  it("refuses yourself, a block either way, a visitor and an unknown user, and writes nothing", async () => {
    const creator = await createUser();
    const blockedByCreator = await createUser();
    const blocker = await createUser();
    await block(creator.user.userId, blockedByCreator.user.userId);
    await block(blocker.user.userId, creator.user.userId);

    expect((await follow(creator.user.username, creator.token)).status).toBe(403);
    expect((await follow(creator.user.username, blockedByCreator.token)).status).toBe(403);
    expect((await follow(creator.user.username, blocker.token)).status).toBe(403);
    expect((await follow(creator.user.username)).status).toBe(401);
    expect((await follow("no_such_person", blocker.token)).status).toBe(404);
    expect((await follow("x".repeat(65), blocker.token)).status).toBe(422);
    const self = await follow(creator.user.username, creator.token);
    expect(((await self.json()) as { message: string }).message).toBe("You cannot follow yourself.");

    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM follows WHERE creator_id = ?")
        .bind(creator.user.userId)
        .first("n"),
    ).toBe(0);
    expect(await followNotifications(creator.user.userId)).toBe(0);
  });

  it("a suspended user cannot be followed", async () => {
    const creator = await createUser();
    const fan = await createUser();
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), creator.user.userId)
      .run();
    expect((await follow(creator.user.username, fan.token)).status).toBe(404);
  });
});
