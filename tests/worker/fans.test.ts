import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fansPageSql } from "../../worker/domain/subscriptions/list-fans";
import { api, createUser, unique } from "./factories";
import { block, makeCreator } from "./timeline-fixtures";

type Fan = {
  userId: number;
  username: string;
  name: string;
  avatarUrl: string;
  since: string;
  period: string | null;
  priceCents: number | null;
};
type FanPage = { fans: Fan[]; nextCursor: string | null };

const DAY = 86_400_000;
const FUTURE = new Date(Date.now() + 30 * DAY).toISOString();
const PAST = new Date(Date.now() - DAY).toISOString();

/** A member straight into D1 (no session): enough for someone who only appears in a list. */
async function seedMember() {
  const username = `fan${unique()}`.slice(0, 30);
  const at = new Date().toISOString();
  const row = await env.DB.prepare(
    `INSERT INTO users (username, name, email, password_hash, date_of_birth, account_type, created_at, updated_at)
     VALUES (?1, ?2, ?1 || '@example.com', 'x', '1990-01-01', 'other', ?3, ?3) RETURNING id`,
  )
    .bind(username, `Name ${username}`, at)
    .first<{ id: number }>();
  return { id: row!.id, username };
}

const seedSubscription = (
  fanId: number,
  creatorId: number,
  s: { status: string; startedAt: string; periodEnd: string; period?: string; priceCents?: number },
) =>
  env.DB.prepare(
    "INSERT INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end) VALUES (?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(fanId, creatorId, s.period ?? "month", s.priceCents ?? 0, s.status, s.startedAt, s.periodEnd)
    .run();

const seedFollow = (followerId: number, creatorId: number, at: string) =>
  env.DB.prepare("INSERT INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?)")
    .bind(followerId, creatorId, at)
    .run();

async function fans(token: string, query = ""): Promise<FanPage> {
  const response = await api(`/me/fans${query}`, { token });
  expect(response.status).toBe(200);
  return (await response.json()) as FanPage;
}

describe("a creator's fans", () => {
  it("lists live subscribers (with plan) and followers, leaving out expired, blocked and suspended members", async () => {
    const creator = await makeCreator();
    const creatorId = creator.user.userId;
    const [active, cancelled, expired, runOut, follower, blockedByCreator, blockingCreator, suspended] =
      await Promise.all(Array.from({ length: 8 }, seedMember));
    await seedSubscription(active!.id, creatorId, {
      status: "active",
      startedAt: "2026-03-01T10:00:00.000Z",
      periodEnd: FUTURE,
      period: "year",
      priceCents: 4999,
    });
    await seedSubscription(cancelled!.id, creatorId, {
      status: "cancelled",
      startedAt: "2026-02-01T10:00:00.000Z",
      periodEnd: FUTURE,
      period: "week",
      priceCents: 300,
    });
    await seedSubscription(expired!.id, creatorId, {
      status: "expired",
      startedAt: "2026-04-01T10:00:00.000Z",
      periodEnd: PAST,
    });
    // Cancelled and past its paid period, not yet expired by the cron: no longer a subscriber.
    await seedSubscription(runOut!.id, creatorId, {
      status: "cancelled",
      startedAt: "2026-04-02T10:00:00.000Z",
      periodEnd: PAST,
    });
    for (const member of [blockedByCreator!, blockingCreator!, suspended!]) {
      await seedSubscription(member.id, creatorId, {
        status: "active",
        startedAt: "2026-04-03T10:00:00.000Z",
        periodEnd: FUTURE,
      });
      await seedFollow(member.id, creatorId, "2026-04-03T10:00:00.000Z");
    }
    await seedFollow(active!.id, creatorId, "2026-03-01T10:00:00.000Z");
    await seedFollow(follower!.id, creatorId, "2026-05-01T08:30:00.000Z");
    await block(creatorId, blockedByCreator!.id);
    await block(blockingCreator!.id, creatorId);
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?").bind(PAST, suspended!.id).run();

    const subscribers = await fans(creator.token);
    expect(subscribers).toEqual({
      fans: [
        {
          userId: active!.id,
          username: active!.username,
          name: `Name ${active!.username}`,
          avatarUrl: "",
          since: "2026-03-01T10:00:00.000Z",
          period: "year",
          priceCents: 4999,
          bundleMonths: null,
        },
        {
          userId: cancelled!.id,
          username: cancelled!.username,
          name: `Name ${cancelled!.username}`,
          avatarUrl: "",
          since: "2026-02-01T10:00:00.000Z",
          period: "week",
          priceCents: 300,
          bundleMonths: null,
        },
      ],
      nextCursor: null,
    });
    expect(await fans(creator.token, "?kind=subscribers")).toEqual(subscribers);

    const followers = await fans(creator.token, "?kind=followers");
    expect(followers.fans).toEqual([
      {
        userId: follower!.id,
        username: follower!.username,
        name: `Name ${follower!.username}`,
        avatarUrl: "",
        since: "2026-05-01T08:30:00.000Z",
        period: null,
        priceCents: null,
        bundleMonths: null,
      },
      {
        userId: active!.id,
        username: active!.username,
        name: `Name ${active!.username}`,
        avatarUrl: "",
        since: "2026-03-01T10:00:00.000Z",
        period: null,
        priceCents: null,
        bundleMonths: null,
      },
    ]);
    expect(followers.nextCursor).toBeNull();
  });

  it("pages newest first with a cursor, ties broken by the newer id, nothing repeated or skipped", async () => {
    const creator = await makeCreator();
    const members = [];
    for (let index = 0; index < 23; index++) members.push(await seedMember());
    // Follow times: member i at minute i, except members 10 and 11 who followed at the same instant.
    const at = (index: number) => new Date(Date.UTC(2026, 5, 1, 12, index === 11 ? 10 : index)).toISOString();
    for (const [index, member] of members.entries()) await seedFollow(member.id, creator.user.userId, at(index));

    const first = await fans(creator.token, "?kind=followers");
    expect(first.fans).toHaveLength(20);
    expect(first.nextCursor).not.toBeNull();
    const second = await fans(creator.token, `?kind=followers&cursor=${first.nextCursor}`);
    expect(second.nextCursor).toBeNull();
    // Newest first: members 22 down to 12, then 11 before 10 (same instant, higher id), then 9 down to 0.
    const expected = [
      ...members.slice(12).reverse(),
      members[11]!,
      members[10]!,
      ...members.slice(0, 10).reverse(),
    ].map((member) => member.id);
    expect([...first.fans, ...second.fans].map((fan) => fan.userId)).toEqual(expected);
    expect(second.fans).toHaveLength(3);
  });

  it("pages subscribers by start time", async () => {
    const creator = await makeCreator();
    const members = [];
    for (let index = 0; index < 21; index++) members.push(await seedMember());
    for (const [index, member] of members.entries()) {
      await seedSubscription(member.id, creator.user.userId, {
        status: "active",
        startedAt: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
        periodEnd: FUTURE,
      });
    }
    const first = await fans(creator.token);
    expect(first.fans.map((fan) => fan.userId)).toEqual(
      members
        .slice(1)
        .reverse()
        .map((member) => member.id),
    );
    const second = await fans(creator.token, `?cursor=${first.nextCursor}`);
    expect(second).toEqual({
      fans: [expect.objectContaining({ userId: members[0]!.id, since: "2026-01-01T00:00:00.000Z" })],
      nextCursor: null,
    });
  });

  it("reads each page through one index, in its order", async () => {
    const plan = async (sql: string) =>
      (
        await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(1, new Date().toISOString(), "2026-01-01T00:00:00.000Z", 5, 21)
          .all<{ detail: string }>()
      ).results
        .map((row) => row.detail)
        .join(" | ");
    for (const withCursor of [false, true]) {
      const subscribers = await plan(fansPageSql("subscribers", withCursor));
      expect(subscribers).toContain("USING INDEX subscriptions_creator_started (creator_id=?");
      expect(subscribers).not.toContain("TEMP B-TREE");
      const followers = await plan(fansPageSql("followers", withCursor));
      expect(followers).toContain("USING COVERING INDEX follows_creator (creator_id=?");
      expect(followers).not.toContain("TEMP B-TREE");
    }
  });

  it("answers members 403, visitors 401, and a bad kind or cursor 422", async () => {
    const member = await createUser();
    const forbidden = await api("/me/fans", { token: member.token });
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { message: string }).message).toBe("Only creators have a dashboard.");
    expect((await api("/me/fans")).status).toBe(401);

    const creator = await makeCreator();
    const badKind = await api("/me/fans?kind=everyone", { token: creator.token });
    expect(badKind.status).toBe(422);
    expect(((await badKind.json()) as { errors: Record<string, string[]> }).errors.kind).toEqual(["Invalid value"]);
    const badCursor = await api("/me/fans?cursor=bm90LWEtY3Vyc29y", { token: creator.token });
    expect(badCursor.status).toBe(422);
    expect(((await badCursor.json()) as { message: string }).message).toBe(
      "This list position is not valid. Reload the page.",
    );
  });
});
