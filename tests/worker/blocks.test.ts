import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getPost } from "../../worker/domain/posts/get-post";
import { blockedEitherWaySql } from "../../worker/domain/policies/members";
import { api, createUser, postJson } from "./factories";
import { createPost, del, fetchMedia } from "./moderation-support";

const at = () => new Date().toISOString();

/** The members policy's "blocked either way", asked of the database as every statement embeds it. */
const blockedEitherWay = (a: number, b: number) =>
  env.DB.prepare(`SELECT ${blockedEitherWaySql("?1", "?2")} AS blocked`)
    .bind(a, b)
    .first<number>("blocked")
    .then((blocked) => blocked === 1);

describe("blocks", () => {
  it("cuts follows both ways, expires live subscriptions, and hides the blocker's posts and media", async () => {
    const creator = await createUser();
    const fan = await createUser();
    const bystander = await createUser();
    const { postId, key } = await createPost(creator.user.userId, "subscribers");
    const month = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?)",
      ).bind(
        fan.user.userId,
        creator.user.userId,
        at(),
        creator.user.userId,
        fan.user.userId,
        at(),
        bystander.user.userId,
        creator.user.userId,
        at(),
      ),
      env.DB.prepare(
        "INSERT INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end) VALUES (?, ?, 'month', 0, 'active', ?, ?), (?, ?, 'month', 0, 'active', ?, ?)",
      ).bind(
        fan.user.userId,
        creator.user.userId,
        at(),
        month,
        bystander.user.userId,
        creator.user.userId,
        at(),
        month,
      ),
    ]);
    expect((await getPost(env.DB, postId, fan.user.userId))?.media).not.toBeNull();
    expect(await fetchMedia(key, fan.token)).toBe(200);

    const blocked = await postJson(`/users/${fan.user.username}/block`, {}, { token: creator.token });
    expect(blocked.status).toBe(200);
    expect((await postJson(`/users/${fan.user.username}/block`, {}, { token: creator.token })).status).toBe(200);

    expect(
      await env.DB.prepare("SELECT follower_id, creator_id FROM follows")
        .all()
        .then((r) => r.results),
    ).toEqual([{ follower_id: bystander.user.userId, creator_id: creator.user.userId }]);
    const subscriptions = await env.DB.prepare("SELECT fan_id, status, ended_at FROM subscriptions ORDER BY id").all<{
      fan_id: number;
      status: string;
      ended_at: string | null;
    }>();
    expect(subscriptions.results.map((s) => [s.fan_id, s.status, s.ended_at !== null])).toEqual([
      [fan.user.userId, "expired", true],
      [bystander.user.userId, "active", false],
    ]);
    expect(
      await env.DB.prepare("SELECT subscriber_count FROM users WHERE id = ?")
        .bind(creator.user.userId)
        .first("subscriber_count"),
    ).toBe(1);

    expect(await blockedEitherWay(fan.user.userId, creator.user.userId)).toBe(true);
    expect(await blockedEitherWay(creator.user.userId, fan.user.userId)).toBe(true);
    expect(await blockedEitherWay(bystander.user.userId, creator.user.userId)).toBe(false);
    expect(await getPost(env.DB, postId, fan.user.userId)).toBeNull();
    expect(await fetchMedia(key, fan.token)).toBe(404);
    expect(await fetchMedia(key, bystander.token)).toBe(200);
    expect((await getPost(env.DB, postId, creator.user.userId))?.media).not.toBeNull();

    const list = (await (await api("/blocks", { token: creator.token })).json()) as { users: { username: string }[] };
    expect(list.users.map((u) => u.username)).toEqual([fan.user.username]);

    expect((await del(`/users/${fan.user.username}/block`, creator.token)).status).toBe(200);
    expect(await blockedEitherWay(fan.user.userId, creator.user.userId)).toBe(false);
    expect(await blockedEitherWay(creator.user.userId, fan.user.userId)).toBe(false);
    // Unblocking restores visibility by the post's own rule, not the ended subscription.
    expect((await getPost(env.DB, postId, fan.user.userId))?.media).toBeNull();
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM follows WHERE follower_id = ?").bind(fan.user.userId).first("n"),
    ).toBe(0);
  });

  it("refuses yourself, unknown users and visitors", async () => {
    const member = await createUser();
    const self = await postJson(`/users/${member.user.username}/block`, {}, { token: member.token });
    expect(self.status).toBe(422);
    expect(((await self.json()) as { message: string }).message).toBe("You cannot block yourself.");
    expect((await postJson("/users/nobody_here/block", {}, { token: member.token })).status).toBe(404);
    expect((await del("/users/nobody_here/block", member.token)).status).toBe(404);
    expect((await postJson(`/users/${member.user.username}/block`, {})).status).toBe(401);
    // One rule for a {username} in any path (worker/api/schemas.ts UsernameParams): a name no account can have
    // is simply not found; one past the parameter's 64 characters is malformed.
    expect((await postJson(`/users/${"x".repeat(31)}/block`, {}, { token: member.token })).status).toBe(404);
    expect((await postJson(`/users/${"x".repeat(65)}/block`, {}, { token: member.token })).status).toBe(422);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM blocks").first("n")).toBe(0);
  });
});
